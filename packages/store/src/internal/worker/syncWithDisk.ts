import type { Skillbook } from '@cohort/skillbook';
import type { StoreError } from '../../Store.ts';
import type { StoreNotice } from '../../StoreNotice.ts';
import { externalChanges } from '../external/externalChanges.ts';
import { chainDigest, fileDigest, fromUtf8, sha256Hex } from '../disk/digest.ts';
import type { DiskView } from '../disk/DiskView.ts';
import { afterLines } from '../disk/DiskView.ts';
import { isLedgerFault, readLedger, sameLedger } from '../disk/Ledger.ts';
import type { Ledger } from '../disk/Ledger.ts';
import { adoptExternal, replayJournal } from '../journal/JournalReplay.ts';
import { parseDocument, readBaseBook } from '../disk/readDisk.ts';
import type { SinceEntry } from '../journal/SinceEntry.ts';
import { JournalSinceEntry } from '../journal/SinceEntry.ts';
import { reconcileExternal } from '../external/reconcileExternal.ts';
import { lookAtReplaced } from '../checkpoint/replacedFile.ts';
import type { JournalScan } from '../journal/scanJournal.ts';
import { scanJournal } from '../journal/scanJournal.ts';
import { opsOfLine } from '../journal/JournalLine.ts';
import { noticeBase } from './StoreContext.ts';
import type { StoreContext } from './StoreContext.ts';

/** The outcome of {@link syncWithDisk}: the view in step with the files, or an I/O refusal (`poison`: stop writing until reopened). */
export type SyncResult =
  | { readonly ok: true; readonly view: DiskView }
  | { readonly ok: false; readonly error: StoreError; readonly poison: boolean };

type Failed = Extract<SyncResult, { ok: false }>;

const fail = (message: string, poison: boolean): Failed => ({ ok: false, error: { code: 'io', message }, poison });

/** Cuts the last write of a checkpoint that died before its commit point, and reports it. */
export async function cutInterrupted(
  ctx: StoreContext,
  cut: { readonly offset: number; readonly bytes: number } | null,
  chain: string,
): Promise<void> {
  if (!cut) return;
  await ctx.fs.truncate(ctx.paths.journal, cut.offset);
  await ctx.notices.emit({
    type: 'store.torn_tail_cut',
    ...noticeBase(ctx, 'torn_tail_cut', cut.offset, cut.bytes, chain),
    file: ctx.paths.journal,
    offset: cut.offset,
    bytes: cut.bytes,
    reason: 'interrupted_checkpoint',
  });
}

/** Cuts a torn journal tail (a writer died mid-append) and reports it; `chain` names the state it was cut at. */
export async function cutTornTail(ctx: StoreContext, scan: JournalScan, chain: string): Promise<void> {
  const tail = scan.tail;
  if (!tail) return;
  await ctx.fs.truncate(ctx.paths.journal, tail.offset);
  const notice: StoreNotice = {
    type: 'store.torn_tail_cut',
    ...noticeBase(ctx, 'torn_tail_cut', tail.offset, tail.bytes, chain),
    file: ctx.paths.journal,
    offset: tail.offset,
    bytes: tail.bytes,
    reason: tail.reason,
  };
  await ctx.notices.emit(notice);
}

type Lines =
  | { readonly kind: 'read'; readonly view: DiskView; readonly commits: number }
  | { readonly kind: 'reload' }
  | { readonly kind: 'failed'; readonly result: Failed };

/**
 * Takes in the records other Cohort writers appended: commits are replayed, external changes
 * adopted (a boundary for later conflict checks), leases recorded; `reload` when they do not
 * follow (another writer re-based the document with a format that does not record it).
 */
async function readForeignLines(ctx: StoreContext, view: DiskView, ledger: Ledger): Promise<Lines> {
  const size = (await ctx.fs.stat(ctx.paths.journal))?.size ?? 0;
  if (size < view.journalEnd)
    return { kind: 'failed', result: fail(`the journal shrank below ${view.journalEnd} bytes: another program cut it`, true) };
  if (size === view.journalEnd) return { kind: 'read', view, commits: 0 };
  const bytes = (await ctx.fs.readFrom(ctx.paths.journal, view.journalEnd)) ?? new Uint8Array(0);
  const scan = scanJournal(bytes, view.journalEnd, view.journalLines + 1);
  if (scan.corruption)
    return { kind: 'failed', result: fail(`the journal is corrupt at line ${scan.corruption.lineNo}: ${scan.corruption.message}`, true) };
  await cutTornTail(ctx, scan, view.ledger.chain);
  const seq = ctx.sequencer;
  let chain = view.chain;
  const since: SinceEntry[] = [];
  let end = scan.end;
  let lines = scan.lines;
  for (const [i, e] of scan.entries.entries()) {
    const line = e.line;
    const revision = seq.book.revision;
    if (line.t === 'mark' || line.prev !== chain) return { kind: 'reload' };
    // a dead writer's checkpoint that never reached its commit point (we hold the lock: it is not writing)
    if (line.t === 'external' && i === scan.entries.length - 1 && ledger.journalOffset <= e.offset) {
      await cutInterrupted(ctx, { offset: e.group, bytes: scan.end - e.group }, chain);
      end = e.group;
      lines -= 2;
      break;
    }
    if (line.t === 'lease' && line.rev === revision) seq.takeLease({ from: line.from, to: line.to });
    else if (line.t === 'external' && line.rev >= revision) seq.absorb(adoptExternal(seq.book, line));
    else if (line.t === 'commit' && line.rev === revision + 1) {
      const replayed = seq.book.replay(opsOfLine(line));
      if (!replayed.ok) return { kind: 'reload' };
      seq.advance(replayed.book);
    } else return { kind: 'reload' };
    chain = chainDigest(chain, e.body);
    if (line.t === 'commit')
      since.push(new JournalSinceEntry(line.rev, chain, bytes, e.offset - view.journalEnd, e.offset - view.journalEnd + e.length - 1));
  }
  return { kind: 'read', view: afterLines(view, end - view.journalEnd, lines, chain, since), commits: since.length };
}

/** Another Cohort writer's checkpoint is a version of the document another program may load. */
function keepCheckpoint(ctx: StoreContext, ledger: Ledger, book: Skillbook): void {
  ctx.versions.keep({ source: 'cohort', digest: ledger.contentDigest, book, revision: ledger.revision, at: ctx.options.clock.now() });
}

/** Another writer checkpointed content we have: the view with its baseline at the ledger's revision, or `null` when it does not match ours. */
async function followCheckpoint(ctx: StoreContext, view: DiskView, ledger: Ledger): Promise<DiskView | null> {
  const head = ctx.sequencer.book.revision;
  if (ledger.revision > head) return null;
  const chainThere = ledger.revision === head ? view.chain : view.since.find((s) => s.rev === ledger.revision)?.chain;
  if (chainThere !== ledger.chain) return null;
  if ((await fileDigest(ctx.fs, ctx.paths.base)) !== ledger.contentDigest) return null;
  const base = await readBaseBook(ctx.fs, ctx.paths, ledger, ctx.paths.base, true);
  if (!base.ok) return null;
  keepCheckpoint(ctx, ledger, base.value.book);
  // another writer's checkpoint replaced the document: the old file this writer watched is not ours to judge
  return {
    ...view,
    ledger,
    baseBook: base.value.book,
    since: view.since.filter((s) => s.rev > ledger.revision),
    docFingerprint: null,
    replaced: null,
  };
}

/** Reloads from the base and the journal (another writer re-based the document), absorbing the result. */
async function reload(ctx: StoreContext, view: DiskView, ledger: Ledger): Promise<SyncResult> {
  if ((await fileDigest(ctx.fs, ctx.paths.base)) !== ledger.contentDigest)
    return fail(`the base file does not hold the ledger's revision ${ledger.revision}`, false);
  const base = await readBaseBook(ctx.fs, ctx.paths, ledger, ctx.paths.base, true);
  if (!base.ok) return fail(base.error.message, false);
  keepCheckpoint(ctx, ledger, base.value.book);
  const journal = (await ctx.fs.readFile(ctx.paths.journal)) ?? new Uint8Array(0);
  // the records before the ledger are history a reload does not need: checked, not parsed
  const scan = scanJournal(journal, 0, 1, undefined, ledger.journalOffset);
  if (scan.corruption) return fail(`the journal is corrupt at line ${scan.corruption.lineNo}: ${scan.corruption.message}`, true);
  await cutTornTail(ctx, scan, view.ledger.chain);
  const replayed = replayJournal(base.value.book, ledger, scan.entries, ctx.paths.journal, journal);
  if (!replayed.ok) return fail(replayed.error.message, true);
  const before = ctx.sequencer.book;
  const { head, since, chain, leases, interrupted } = replayed.value;
  await cutInterrupted(ctx, interrupted, chain);
  const end = interrupted?.offset ?? scan.end;
  const reloaded: DiskView = {
    ledger,
    baseBook: base.value.book,
    since,
    journalEnd: end,
    journalLines: scan.lines - (interrupted ? 2 : 0),
    chain,
    docFingerprint: null,
    replaced: null,
  };
  ctx.sequencer.takeLeases(ledger.leases, leases);
  ctx.sequencer.absorb(head);
  await ctx.notices.emit({
    type: 'store.adopted',
    ...noticeBase(ctx, 'adopted', 'cohort', ledger.contentDigest, chain),
    revision: head.revision,
    fromRevision: before.revision,
    diskDigest: ledger.contentDigest,
    rebased: 0,
    idMap: {},
    base: null,
    conflicts: [],
    external: externalChanges(before, head),
    source: 'cohort',
    writerId: ledger.writerId,
    commits: since.length,
  });
  return { ok: true, view: reloaded };
}

/** Looks at the document: unchanged, ours, unreadable (deferred) or another writer's (reconciled). */
async function checkDocument(ctx: StoreContext, view: DiskView): Promise<DiskView> {
  const stat = await ctx.fs.stat(ctx.paths.document);
  if (stat && stat.fingerprint === view.docFingerprint) return view;
  const bytes = stat ? await ctx.fs.readFile(ctx.paths.document) : undefined;
  if (!bytes) return view;
  const digest = sha256Hex(bytes);
  const { docDigest: _was, ...rest } = view;
  if (digest === view.ledger.contentDigest) return { ...rest, docFingerprint: stat?.fingerprint ?? null };
  // a version already taken in, which a checkpoint could not replace because a late write waits in `.replaced`: that first
  if (view.replaced && ctx.versions.knows(digest)) return { ...rest, docFingerprint: stat?.fingerprint ?? null, docDigest: digest };
  const text = fromUtf8(bytes);
  const parsed = parseDocument(text, ctx.paths.document, ctx.sequencer.book.revision + 1);
  if (!parsed.ok || text === null) {
    await ctx.notices.emit({
      type: 'store.document_unreadable',
      ...noticeBase(ctx, 'document_unreadable', digest),
      file: ctx.paths.document,
      digest,
      message: parsed.ok ? 'not UTF-8' : parsed.error.message,
    });
    return view;
  }
  return (await reconcileExternal(ctx, view, { text, digest, fingerprint: stat?.fingerprint ?? null, book: parsed.value })) ?? view;
}

/** Emits the notice for other Cohort writers' commits taken in from the journal. */
async function reportForeignCommits(ctx: StoreContext, view: DiskView, from: number, commits: number): Promise<void> {
  const last = view.since[view.since.length - 1];
  await ctx.notices.emit({
    type: 'store.adopted',
    ...noticeBase(ctx, 'adopted', 'cohort', view.chain),
    revision: ctx.sequencer.book.revision,
    fromRevision: from,
    diskDigest: view.ledger.contentDigest,
    rebased: 0,
    idMap: {},
    base: null,
    conflicts: [],
    external: noChanges(),
    source: 'cohort',
    writerId: last?.line.writer ?? null,
    commits,
  });
}

/**
 * Brings the store in step with the files before it writes (under the lock): other Cohort
 * writers' journal lines (replayed), their checkpoints and re-basings (followed or reloaded),
 * and a document another program rewrote (classified and reconciled). A document being
 * written (unreadable) is left for the next look: appends go on to the journal meanwhile.
 * Returns the view after all of it.
 */
export async function syncWithDisk(ctx: StoreContext, start: DiskView): Promise<SyncResult> {
  const ledger = await readLedger(ctx.fs, ctx.paths.ledger);
  if (ledger === null || isLedgerFault(ledger))
    return fail(`the ledger is ${ledger === null ? 'missing' : `unreadable: ${ledger.message}`}`, false);
  const before = ctx.sequencer.book.revision;
  const lines = await readForeignLines(ctx, start, ledger);
  if (lines.kind === 'failed') return lines.result;
  let view: DiskView;
  const followed =
    lines.kind === 'read' ? (sameLedger(ledger, lines.view.ledger) ? lines.view : await followCheckpoint(ctx, lines.view, ledger)) : null;
  if (followed === null) {
    const reloaded = await reload(ctx, lines.kind === 'read' ? lines.view : start, ledger);
    if (!reloaded.ok) return reloaded;
    view = reloaded.view;
  } else {
    view = followed;
    if (lines.kind === 'read' && lines.commits > 0) await reportForeignCommits(ctx, view, before, lines.commits);
  }
  view = await checkDocument(ctx, view);
  return { ok: true, view: await checkReplaced(ctx, view) };
}

/**
 * A writer that opened the document before a checkpoint replaced it (ACE writes in place)
 * may have written into the old file after: that write is another writer's document too.
 */
async function checkReplaced(ctx: StoreContext, view: DiskView): Promise<DiskView> {
  const watched = view.replaced;
  if (watched === null || view.docFingerprint === null) return view;
  const file = await lookAtReplaced(ctx, view);
  if (file.kind === 'gone') return { ...view, replaced: null };
  // not read again until it is written to
  if (file.kind === 'unchanged') return { ...view, replaced: { ...watched, seen: file.fingerprint } };
  const text = fromUtf8(file.bytes);
  const parsed = parseDocument(text, ctx.paths.replaced, ctx.sequencer.book.revision + 1);
  // still being written: looked at again next time
  if (!parsed.ok || text === null) return view;
  const doc = { text, digest: file.digest, fingerprint: view.docFingerprint, book: parsed.value, late: true };
  return (await reconcileExternal(ctx, view, doc)) ?? view;
}

/** External changes that are none (a fresh value per notice: notices are handed to subscribers). */
function noChanges() {
  return { added: [], changed: [], removed: [], dropped: [], counts: { added: 0, changed: 0, removed: 0, dropped: 0 } };
}
