import type { AppendResult, CommitRecord, StoreError } from '../Store.ts';
import { chainDigest } from './digest.ts';
import type { DiskView } from './DiskView.ts';
import { afterLines } from './DiskView.ts';
import { lineBody } from './JournalLine.ts';
import type { CommitLine } from './JournalLine.ts';
import type { SinceEntry } from './SinceEntry.ts';
import { writtenEntry } from './SinceEntry.ts';
import { appendJournal, noticeBase, reportIo } from './StoreContext.ts';
import type { StoreContext } from './StoreContext.ts';

/**
 * What {@link appendGroup} did: one result per commit, in order, and the view after the
 * write; `poisoned` when a failed write could not be undone (the store must refuse every
 * append until it is reopened).
 */
export interface GroupOutcome {
  readonly view: DiskView;
  readonly results: readonly AppendResult[];
  /** Whether the journal write failed (nothing of the group was kept). */
  readonly failed: boolean;
  readonly poisoned: StoreError | null;
}

/** The lines of a group of decided commits, and what each commit's result is. */
interface DecidedGroup {
  readonly lines: readonly CommitLine[];
  readonly since: readonly SinceEntry[];
  readonly chain: string;
  readonly results: readonly AppendResult[];
}

/** Decides each commit in order against the sequencer's book, building its journal line. */
function decideGroup(ctx: StoreContext, view: DiskView, commits: readonly CommitRecord[]): DecidedGroup {
  let chain = view.chain;
  const lines: CommitLine[] = [];
  const since: SinceEntry[] = [];
  const results = commits.map((commit): AppendResult => {
    const decided = ctx.sequencer.apply(commit);
    if (!decided.ok) return decided;
    const line: CommitLine = {
      v: 1, t: 'commit', rev: decided.book.revision, prev: chain, writer: ctx.options.writerId,
      session: commit.sessionId, path: [...commit.path], ops: [...decided.ops], at: commit.at,
    };
    chain = chainDigest(chain, lineBody(line));
    lines.push(line);
    since.push(writtenEntry(line, chain));
    const remapped = Object.keys(decided.idMap).length > 0;
    return { ok: true, revision: decided.book.revision, book: decided.book, ...(remapped ? { idMap: decided.idMap } : {}) };
  });
  return { lines, since, chain, results };
}

/**
 * Appends and fsyncs the group's lines in one write: the bytes written, or the failure (the
 * lines cut off again, or — when even that fails — the poison that stops the store).
 */
async function appendOrRollBack(ctx: StoreContext, view: DiskView, lines: readonly CommitLine[], refused: number): Promise<number | { readonly poisoned: StoreError | null }> {
  try {
    return await appendJournal(ctx, lines);
  } catch (error) {
    try {
      await ctx.fs.truncate(ctx.paths.journal, view.journalEnd);
      await reportIo(ctx, 'journal append', ctx.paths.journal, error, refused, false);
      return { poisoned: null };
    } catch (cutError) {
      await reportIo(ctx, 'journal append', ctx.paths.journal, error, refused, true).catch(() => undefined);
      return { poisoned: { code: 'io', message: 'the journal write failed and could not be undone: reopen the store', cause: cutError } };
    }
  }
}

/**
 * One group of appends, under the lock and in step with the files: decides each commit,
 * writes the lines of those accepted with one journal write and one fsync, and reports ids
 * it re-mapped. When the write fails (or the lock was taken over meanwhile), nothing of the
 * group is kept: the sequencer goes back to where it was and every accepted commit is refused.
 */
export async function appendGroup(ctx: StoreContext, view: DiskView, commits: readonly CommitRecord[]): Promise<GroupOutcome> {
  const before = ctx.sequencer.state;
  const group = decideGroup(ctx, view, commits);
  if (group.lines.length === 0) return { view, results: group.results, failed: false, poisoned: null };
  const stillOurs = await ctx.lock.verify();
  const written = stillOurs
    ? await appendOrRollBack(ctx, view, group.lines, commits.length)
    : { poisoned: null };
  if (typeof written !== 'number') {
    ctx.sequencer.restore(before);
    const error: StoreError = !stillOurs
      ? { code: 'locked', message: 'another writer took the lock over during the write' }
      : (written.poisoned ?? { code: 'io', message: 'the journal write failed; nothing of this group was kept' });
    const results = group.results.map((r): AppendResult => (r.ok ? { ok: false, error } : r));
    return { view, results, failed: true, poisoned: written.poisoned };
  }
  await reportRemaps(ctx, commits, group.results);
  return { view: afterLines(view, written, group.lines.length, group.chain, group.since), results: group.results, failed: false, poisoned: null };
}

async function reportRemaps(ctx: StoreContext, commits: readonly CommitRecord[], results: readonly AppendResult[]): Promise<void> {
  for (const [i, commit] of commits.entries()) {
    const r = results[i];
    if (!r?.ok || !r.idMap) continue;
    await ctx.notices.emit({
      type: 'store.ids_remapped', ...noticeBase(ctx, 'ids_remapped', commit.sessionId, r.revision),
      sessionId: commit.sessionId, path: [...commit.path], revision: r.revision, idMap: { ...r.idMap },
    });
  }
}
