import type { StoreError } from '../../Store.ts';
import { chainDigest } from '../disk/digest.ts';
import type { DiskView } from '../disk/DiskView.ts';
import { afterLines } from '../disk/DiskView.ts';
import { validLeaseCount } from '../sequencing/IdLeases.ts';
import { blockLine } from '../journal/JournalLine.ts';
import { lineBody } from '../journal/lineCodec.ts';
import type { CommitLine, LeaseLine, RecordLine } from '../journal/JournalLine.ts';
import type { GroupItem, ItemResult } from '../sequencing/GroupCommitQueue.ts';
import { itemRefusal } from '../sequencing/GroupCommitQueue.ts';
import type { SinceEntry } from '../journal/SinceEntry.ts';
import { writtenEntry } from '../journal/SinceEntry.ts';
import { appendJournal, noticeBase, reportIo } from './StoreContext.ts';
import type { StoreContext } from './StoreContext.ts';

/**
 * What {@link appendGroup} did: one result per item, in order, and the view after the write;
 * `failed` when the journal write failed (nothing of the group was kept), `poisoned` when that
 * could not even be undone (the store must refuse everything until it is reopened).
 */
export interface GroupOutcome {
  readonly view: DiskView;
  readonly results: readonly ItemResult[];
  readonly failed: boolean;
  readonly poisoned: StoreError | null;
}

/** The records of a group of decided items, and what each item's result is. */
interface DecidedGroup {
  readonly records: readonly RecordLine[];
  readonly since: readonly SinceEntry[];
  readonly chain: string;
  readonly results: readonly ItemResult[];
}

/** Decides each item in order against the sequencer, building its journal record. */
function decideGroup(ctx: StoreContext, view: DiskView, items: readonly GroupItem[]): DecidedGroup {
  let chain = view.chain;
  const records: RecordLine[] = [];
  const since: SinceEntry[] = [];
  const writer = ctx.options.writerId;
  const results = items.map((item): ItemResult => {
    if (item.kind === 'lease') {
      if (!validLeaseCount(item.count))
        return {
          kind: 'lease',
          result: { ok: false, error: { code: 'invalid_request', message: `a lease is 1 to 1,000,000 ids, not ${item.count}` } },
        };
      const lease = ctx.sequencer.lease(item.count);
      const line: LeaseLine = {
        v: 2,
        t: 'lease',
        rev: ctx.sequencer.book.revision,
        prev: chain,
        writer,
        from: lease.from,
        to: lease.to,
        at: ctx.options.clock.now(),
      };
      chain = chainDigest(chain, lineBody(line));
      records.push(line);
      return { kind: 'lease', result: { ok: true, lease } };
    }
    const { commit } = item;
    const decided = ctx.sequencer.apply(commit);
    if (!decided.ok) return { kind: 'append', result: decided };
    const revision = decided.book.revision;
    const remapped = decided.idMap.size > 0 ? { idMap: decided.idMap } : {};
    // a commit whose every op changed nothing is acknowledged, not journaled
    if (decided.blocks.length === 0)
      return { kind: 'append', result: { ok: true, revision, book: decided.book, entries: [], ...remapped } };
    const root = { session: commit.sessionId, path: commit.path, at: commit.at };
    const line: CommitLine = {
      v: 2,
      t: 'commit',
      rev: revision,
      prev: chain,
      writer,
      session: commit.sessionId,
      path: [...commit.path],
      at: commit.at,
      blocks: decided.blocks.map((b) =>
        blockLine({ session: b.sessionId, path: b.path, ...(b.name === undefined ? {} : { name: b.name }), at: b.at, ops: b.ops }, root),
      ),
    };
    chain = chainDigest(chain, lineBody(line));
    records.push(line);
    since.push(writtenEntry(line, chain));
    return { kind: 'append', result: { ok: true, revision, book: decided.book, entries: decided.blocks, ...remapped } };
  });
  return { records, since, chain, results };
}

/**
 * Appends and fsyncs the group's records in one write: the bytes written, or the failure (the
 * write cut off again, or — when even that fails — the poison that stops the store).
 */
async function appendOrRollBack(
  ctx: StoreContext,
  view: DiskView,
  records: readonly RecordLine[],
  refused: number,
): Promise<number | { readonly poisoned: StoreError | null }> {
  try {
    return await appendJournal(ctx, records);
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
 * One group of appends and leases, under the lock and in step with the files: decides each
 * item, writes the records of those granted with one journal write and one fsync, and reports
 * ids it re-mapped. When the write fails (or the lock was taken over meanwhile), nothing of the
 * group is kept: the sequencer goes back to where it was and every granted item is refused.
 */
export async function appendGroup(ctx: StoreContext, view: DiskView, items: readonly GroupItem[]): Promise<GroupOutcome> {
  const before = ctx.sequencer.state;
  const group = decideGroup(ctx, view, items);
  if (group.records.length === 0) return { view, results: group.results, failed: false, poisoned: null };
  const stillOurs = await ctx.lock.verify();
  const written = stillOurs ? await appendOrRollBack(ctx, view, group.records, items.length) : { poisoned: null };
  if (typeof written !== 'number') {
    ctx.sequencer.restore(before);
    const error: StoreError = !stillOurs
      ? { code: 'locked', message: 'another writer took the lock over during the write' }
      : (written.poisoned ?? { code: 'io', message: 'the journal write failed; nothing of this group was kept' });
    const results = group.results.map((r): ItemResult => (r.result.ok ? itemRefusal(r.kind, error) : r));
    return { view, results, failed: true, poisoned: written.poisoned };
  }
  await reportRemaps(ctx, items, group.results);
  return {
    view: afterLines(view, written, group.records.length + 1, group.chain, group.since),
    results: group.results,
    failed: false,
    poisoned: null,
  };
}

async function reportRemaps(ctx: StoreContext, items: readonly GroupItem[], results: readonly ItemResult[]): Promise<void> {
  for (const [i, item] of items.entries()) {
    const done = results[i];
    const r = done?.kind === 'append' ? done.result : null;
    if (item.kind !== 'append' || !r?.ok || !r.idMap) continue;
    const { commit } = item;
    await ctx.notices.emit({
      type: 'store.ids_remapped',
      ...noticeBase(ctx, 'ids_remapped', commit.sessionId, r.revision),
      sessionId: commit.sessionId,
      path: [...commit.path],
      revision: r.revision,
      idMap: Object.fromEntries(r.idMap),
    });
  }
}
