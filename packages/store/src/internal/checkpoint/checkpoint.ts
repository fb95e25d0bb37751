import type { Skillbook } from '@cohort/skillbook';
import type { StoreNotice } from '../../StoreNotice.ts';
import { writeFresh } from '../disk/atomicWrite.ts';
import { chainDigest, sha256Hex, utf8 } from '../disk/digest.ts';
import type { DiskView } from '../disk/DiskView.ts';
import { afterLines } from '../disk/DiskView.ts';
import { lineBody } from '../journal/lineCodec.ts';
import type { ExternalLine } from '../journal/JournalLine.ts';
import { REMEMBERED_CHECKPOINTS, REMEMBERED_RENUMBERINGS, isLedgerFault, readLedger, sameLedger, writeLedger } from '../disk/Ledger.ts';
import type { Ledger, Renumbered } from '../disk/Ledger.ts';
import { replaceDocument, watchAfter } from './replacedFile.ts';
import type { Replacement } from './replacedFile.ts';
import { writeSnapshotFile } from './snapshotFile.ts';
import { appendJournal, noticeBase } from '../worker/StoreContext.ts';
import type { StoreContext } from '../worker/StoreContext.ts';
import { tempPath } from '../disk/StorePaths.ts';

/** What to write as the new document revision. */
export interface CheckpointRequest {
  readonly book: Skillbook;
  /** The exact bytes (default `book.toJSON()`; an adopted document keeps the other writer's bytes). */
  readonly text?: string;
  readonly reason: Extract<StoreNotice, { type: 'store.saved' }>['reason'];
  /** Rewrite the document file too (not when adopting the document as it is). */
  readonly rewriteDocument: boolean;
  /** The document's fingerprint as last looked at (`null`: it must not exist); a different one keeps the document as it is. */
  readonly expectFingerprint: string | null;
  /** What that document holds (its sha256), to notice a write that lands in the replaced file late. */
  readonly expectDigest: string | null;
  /** The digest of a late write into `.replaced` this checkpoint takes in (it may then be replaced). */
  readonly absorbsLate?: string;
  readonly lineage?: string | null;
  /**
   * What the checkpoint takes in that did not arrive as ops (a document another program
   * wrote, the content a store was created with): recorded in the journal, hashed into the
   * chain, before the commit point — so a crash between the two replays it on open.
   */
  readonly external?: Omit<ExternalLine, 'v' | 't' | 'rev' | 'prev' | 'writer' | 'digest' | 'at'>;
  /** External skills renumbered by this checkpoint, remembered in the ledger with the ones before. */
  readonly renumbered?: readonly Renumbered[];
}

/**
 * The outcome of {@link writeCheckpoint}: written, with the view after it
 * (`documentReplaced: false` when another writer changed the document meanwhile: it is left as
 * it is, and the next look reconciles it), or not written because the lock was lost.
 */
export type CheckpointResult =
  | { readonly ok: true; readonly view: DiskView; readonly digest: string; readonly documentReplaced: boolean }
  | { readonly ok: false; readonly reason: 'lock_lost' };

/** A checkpoint failed after its commit point (the ledger was replaced); opening the store again finishes it. */
export class CheckpointIncomplete extends Error {
  constructor(cause: unknown) {
    super(`a checkpoint failed after its commit point: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'CheckpointIncomplete';
  }
}

/** The document's fingerprint if it holds `digest` now (read back: a write racing ours is not missed). */
export async function fingerprintIfHolds(ctx: StoreContext, digest: string): Promise<string | null> {
  const stat = await ctx.fs.stat(ctx.paths.document);
  const bytes = stat ? await ctx.fs.readFile(ctx.paths.document) : undefined;
  return stat && bytes && sha256Hex(bytes) === digest ? stat.fingerprint : null;
}

/** The ledger a checkpoint of `request` writes, its journal record (if any) being already in `base`. */
function ledgerOf(ctx: StoreContext, view: DiskView, base: DiskView, request: CheckpointRequest, digest: string): Ledger {
  const remembered = [...view.ledger.renumbered, ...(request.renumbered ?? [])].slice(-REMEMBERED_RENUMBERINGS);
  return {
    format: 'cohort-ledger/2',
    revision: request.book.revision,
    contentDigest: digest,
    chain: base.chain,
    writerId: ctx.options.writerId,
    journalOffset: base.journalEnd,
    lineage: request.lineage === undefined ? view.ledger.lineage : request.lineage,
    at: ctx.options.clock.now(),
    leases: ctx.sequencer.leaseRecord,
    renumbered: remembered,
    checkpoints:
      request.rewriteDocument || request.text !== undefined
        ? [...view.ledger.checkpoints.filter((r) => r !== request.book.revision), request.book.revision].slice(-REMEMBERED_CHECKPOINTS)
        : view.ledger.checkpoints,
  };
}

/**
 * Everything up to and including a checkpoint's commit point: the temporary files, the
 * external record, the ledger. The view after its record and the ledger, or `lock_lost`. A failure before the
 * commit point (a full disk, say) takes back what it wrote at once — the temporary files, the
 * record — so nothing stays behind to fill the disk, and rethrows; one after it (the ledger
 * was replaced, then something failed) is a {@link CheckpointIncomplete}.
 */
async function upToCommitPoint(
  ctx: StoreContext,
  view: DiskView,
  request: CheckpointRequest,
  bytes: Uint8Array,
  digest: string,
): Promise<{ readonly base: DiskView; readonly ledger: Ledger } | 'lock_lost'> {
  const { fs, paths } = ctx;
  const temps = request.rewriteDocument ? [tempPath(paths.document), tempPath(paths.base)] : [tempPath(paths.base)];
  let base = view;
  let ledger: Ledger | null = null;
  try {
    if (request.rewriteDocument) await writeFresh(fs, tempPath(paths.document), bytes);
    await writeFresh(fs, tempPath(paths.base), bytes);
    if (!(await ctx.lock.verify())) {
      await removeAll(ctx, temps);
      return 'lock_lost';
    }
    if (request.external) {
      const line: ExternalLine = {
        v: 2,
        t: 'external',
        rev: request.book.revision,
        prev: view.chain,
        writer: ctx.options.writerId,
        ...request.external,
        digest,
        at: ctx.options.clock.now(),
      };
      base = afterLines(view, await appendRecord(ctx, view, line), 2, chainDigest(view.chain, lineBody(line)));
    }
    ledger = ledgerOf(ctx, view, base, request, digest);
    await writeLedger(fs, paths.ledger, ledger);
    return { base, ledger };
  } catch (error) {
    if (ledger && (await holds(ctx, ledger))) throw error instanceof CheckpointIncomplete ? error : new CheckpointIncomplete(error);
    await removeAll(ctx, temps);
    if (base !== view) await fs.truncate(paths.journal, view.journalEnd).catch(() => undefined);
    throw error;
  }
}

/** Whether the ledger file names `ledger` (its replacement happened before what failed). */
async function holds(ctx: StoreContext, ledger: Ledger): Promise<boolean> {
  const written = await readLedger(ctx.fs, ctx.paths.ledger).catch(() => null);
  return written !== null && !isLedgerFault(written) && sameLedger(written, ledger);
}

/** Removes temporary files (best effort: one that stays is removed by the next open). */
async function removeAll(ctx: StoreContext, paths: readonly string[]): Promise<void> {
  for (const path of paths) await ctx.fs.unlink(path).catch(() => undefined);
}

/**
 * Makes `book` the document's new revision, crash-safely: the new bytes go to temporary files
 * (fsynced); then the ledger is replaced atomically — the commit point; then the temporary
 * files are renamed over the base and the document and the directory is fsynced. A crash
 * before the ledger leaves the old revision; after it, opening finishes the renames. The
 * document is not replaced when another writer changed it since the store looked.
 */
export async function writeCheckpoint(ctx: StoreContext, view: DiskView, request: CheckpointRequest): Promise<CheckpointResult> {
  const { fs, paths } = ctx;
  const text = request.text ?? request.book.toJSON();
  const bytes = utf8(text);
  const digest = sha256Hex(bytes);
  const committed = await upToCommitPoint(ctx, view, request, bytes, digest);
  if (committed === 'lock_lost') return { ok: false, reason: 'lock_lost' };
  const { base, ledger } = committed;
  const entries = view.since.length;
  let after: DiskView;
  let replacement: Replacement | null = null;
  try {
    await fs.rename(tempPath(paths.base), paths.base);
    replacement = request.rewriteDocument ? await replaceDocument(ctx, view, request.expectFingerprint, request.absorbsLate) : null;
    await fs.syncDir(paths.dir);
    const { docDigest: _was, ...rest } = base;
    after = {
      ...rest,
      ledger,
      baseBook: request.book,
      since: [],
      docFingerprint: await fingerprintIfHolds(ctx, digest),
      replaced: watchAfter(view, replacement, request.expectDigest),
    };
  } catch (error) {
    // past the commit point the files name a revision the view does not: only reopening repairs it
    throw new CheckpointIncomplete(error);
  }
  await refreshSnapshot(ctx, request, digest);
  // what another writer may load now, and later save on top of
  if (typeof replacement === 'object' || replacement === 'created') {
    ctx.versions.keep({ source: 'cohort', digest, book: request.book, revision: request.book.revision, at: ctx.options.clock.now() });
  }
  await ctx.notices.emit({
    type: 'store.saved',
    ...noticeBase(ctx, 'saved', request.book.revision, digest, request.reason),
    revision: request.book.revision,
    digest,
    reason: request.reason,
    entries,
  });
  return { ok: true, view: after, digest, documentReplaced: replacement !== 'kept' && replacement !== 'late' };
}

/** Appends a checkpoint's record before its commit point; a failed write is cut off again (or, when that fails too, stops the store). */
async function appendRecord(ctx: StoreContext, view: DiskView, line: ExternalLine): Promise<number> {
  try {
    return await appendJournal(ctx, [line]);
  } catch (error) {
    await ctx.fs.truncate(ctx.paths.journal, view.journalEnd).catch((cutError: unknown) => {
      throw new CheckpointIncomplete(cutError);
    });
    throw error;
  }
}

/**
 * Writes the checkpoint's snapshot (see `snapshotFile.ts`) when the document is the book's own
 * text; another writer's document taken as it is (`request.text`) may not read back as this
 * very book, so its checkpoint has none and the previous one is removed. Best effort: a
 * snapshot that is missing or does not match is ignored on open, so a failure here costs
 * only the next open's time.
 */
async function refreshSnapshot(ctx: StoreContext, request: CheckpointRequest, digest: string): Promise<void> {
  try {
    if (request.text === undefined) await writeSnapshotFile(ctx.fs, ctx.paths, request.book, digest);
    else await ctx.fs.unlink(ctx.paths.snapshot);
  } catch {
    // see above: nothing depends on the snapshot
  }
}
