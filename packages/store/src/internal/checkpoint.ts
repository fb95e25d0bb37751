import type { Skillbook } from '@cohort/skillbook';
import { fsErrorCode } from '../StoreFs.ts';
import type { StoreNotice } from '../StoreNotice.ts';
import { writeFresh } from './atomicWrite.ts';
import { chainDigest, sha256Hex, utf8 } from './digest.ts';
import { lineBody } from './JournalLine.ts';
import type { MarkLine } from './JournalLine.ts';
import { writeLedger } from './Ledger.ts';
import { writeSnapshotFile } from './snapshotFile.ts';
import type { Ledger } from './Ledger.ts';
import { appendJournal, noticeBase } from './StoreContext.ts';
import type { StoreContext } from './StoreContext.ts';
import { tempPath } from './StorePaths.ts';

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
  /** An audit mark to append after the ledger (a reconciliation), hashed into the chain. */
  readonly mark?: Omit<MarkLine, 'digest' | 'rev'>;
}

/**
 * The outcome of {@link writeCheckpoint}: written (`documentReplaced: false` when another
 * writer changed the document meanwhile: it is left as it is, and the next look reconciles
 * it), or not written because the lock was lost.
 */
export type CheckpointResult =
  | { readonly ok: true; readonly digest: string; readonly documentReplaced: boolean }
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

async function cleanup(ctx: StoreContext, paths: readonly string[]): Promise<void> {
  for (const p of paths) await ctx.fs.unlink(p).catch(() => undefined);
}

/**
 * Makes `book` the document's new revision, crash-safely: the new bytes go to temporary files
 * (fsynced); then the ledger is replaced atomically — the commit point; then the temporary
 * files are renamed over the base and the document and the directory is fsynced. A crash
 * before the ledger leaves the old revision; after it, opening finishes the renames. The
 * document is not replaced when another writer changed it since the store looked.
 */
export async function writeCheckpoint(ctx: StoreContext, request: CheckpointRequest): Promise<CheckpointResult> {
  const { fs, paths, view } = ctx;
  const text = request.text ?? request.book.toJSON();
  const bytes = utf8(text);
  const digest = sha256Hex(bytes);
  const temps = request.rewriteDocument ? [tempPath(paths.document), tempPath(paths.base)] : [tempPath(paths.base)];
  if (request.rewriteDocument) await writeFresh(fs, tempPath(paths.document), bytes);
  await writeFresh(fs, tempPath(paths.base), bytes);
  if (!(await ctx.lock.verify())) {
    await cleanup(ctx, temps);
    return { ok: false, reason: 'lock_lost' };
  }
  const mark: MarkLine | null = request.mark ? { ...request.mark, rev: request.book.revision, digest } : null;
  const chain = mark ? chainDigest(view.chain, lineBody(mark)) : view.chain;
  const ledger: Ledger = {
    format: 'cohort-ledger/1', revision: request.book.revision, contentDigest: digest, chain,
    writerId: ctx.options.writerId, journalOffset: view.journalEnd,
    lineage: request.lineage === undefined ? view.ledger.lineage : request.lineage, at: ctx.options.clock.now(),
  };
  await writeLedger(fs, paths.ledger, ledger);
  const entries = view.since.length;
  let replaced: { readonly identity: string } | 'created' | 'kept' | 'late' | null = null;
  try {
    await fs.rename(tempPath(paths.base), paths.base);
    replaced = request.rewriteDocument ? await replaceDocument(ctx, request.expectFingerprint, request.absorbsLate) : null;
    await fs.syncDir(paths.dir);
    ctx.view = {
      ...view, ledger, baseBook: request.book, since: [], chain, docFingerprint: await fingerprintIfHolds(ctx, digest),
      replaced: typeof replaced === 'object' && replaced !== null && request.expectDigest !== null
        ? { identity: replaced.identity, digest: request.expectDigest }
        : replaced === null || replaced === 'late' ? view.replaced : null,
    };
    if (mark) {
      const written = await appendJournal(ctx, [mark]);
      ctx.view = { ...ctx.view, journalEnd: ctx.view.journalEnd + written, journalLines: ctx.view.journalLines + 1 };
    }
  } catch (error) {
    // past the commit point the files name a revision the view does not: only reopening repairs it
    throw new CheckpointIncomplete(error);
  }
  await refreshSnapshot(ctx, request, digest);
  await ctx.notices.emit({
    type: 'store.saved', ...noticeBase(ctx, 'saved', request.book.revision, digest, request.reason),
    revision: request.book.revision, digest, reason: request.reason, entries,
  });
  return { ok: true, digest, documentReplaced: replaced !== 'kept' && replaced !== 'late' };
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

/**
 * Renames the new document into place, unless another writer changed it since the store
 * looked. The old file keeps a second name (`.replaced`): a writer that opened it before the
 * rename (ACE writes in place) and writes after it lands there, not nowhere.
 */
async function replaceDocument(
  ctx: StoreContext, expectFingerprint: string | null, absorbsLate: string | undefined,
): Promise<{ readonly identity: string } | 'created' | 'kept' | 'late'> {
  const { fs, paths } = ctx;
  // a write that landed in the previous replaced file since the last look is another writer's
  // document: keep that file (and the current document) for the next look to reconcile
  if (await lateWriteInReplaced(ctx, absorbsLate)) {
    await cleanup(ctx, [tempPath(paths.document)]);
    return 'late';
  }
  await fs.unlink(paths.replaced).catch(() => undefined);
  const current = await fs.stat(paths.document);
  if ((current?.fingerprint ?? null) !== expectFingerprint) {
    await cleanup(ctx, [tempPath(paths.document)]);
    return 'kept';
  }
  // a write between the look and the rename lands in the old file, which keeps this name
  let linked = false;
  if (current) {
    linked = await fs.link(paths.document, paths.replaced).then(() => true, (error: unknown) => {
      if (fsErrorCode(error) !== 'ENOENT') throw error;
      return false;
    });
  }
  await fs.rename(tempPath(paths.document), paths.document);
  return current && linked ? { identity: current.identity } : 'created';
}

/** What the watched `.replaced` file holds now (see {@link lookAtReplaced}). */
export type ReplacedFile =
  /** Nothing is watched, or the file is gone or is another file now: the watch is over. */
  | { readonly kind: 'gone' }
  /** Still what the store replaced (`fingerprint`: the file's, as it was just found). */
  | { readonly kind: 'unchanged'; readonly fingerprint: string }
  /** Something landed in it late: another writer's document. */
  | { readonly kind: 'written'; readonly bytes: Uint8Array; readonly digest: string };

/**
 * Looks at the previous document file kept as `.replaced`, reading it only when its
 * fingerprint moved since it was last found unchanged. One look for every caller: a sync
 * reconciles a late write, a checkpoint keeps the file for that, closing removes it if unchanged.
 */
export async function lookAtReplaced(ctx: StoreContext): Promise<ReplacedFile> {
  const watched = ctx.view.replaced;
  if (!watched) return { kind: 'gone' };
  const stat = await ctx.fs.stat(ctx.paths.replaced);
  if (!stat || stat.identity !== watched.identity) return { kind: 'gone' };
  if (stat.fingerprint === watched.seen) return { kind: 'unchanged', fingerprint: stat.fingerprint };
  const bytes = await ctx.fs.readFile(ctx.paths.replaced);
  if (!bytes) return { kind: 'gone' };
  const digest = sha256Hex(bytes);
  return digest === watched.digest ? { kind: 'unchanged', fingerprint: stat.fingerprint } : { kind: 'written', bytes, digest };
}

/** Whether `.replaced` holds a write no look has reconciled yet (other than the one this checkpoint takes in). */
async function lateWriteInReplaced(ctx: StoreContext, absorbsLate: string | undefined): Promise<boolean> {
  const file = await lookAtReplaced(ctx);
  return file.kind === 'written' && file.digest !== absorbsLate;
}

/**
 * Removes the previous document file kept as `.replaced` when nothing landed in it late
 * (closing: no later look would catch such a write). A file that changed is left for the next open.
 */
export async function retireReplaced(ctx: StoreContext): Promise<void> {
  if ((await lookAtReplaced(ctx)).kind === 'unchanged') await ctx.fs.unlink(ctx.paths.replaced).catch(() => undefined);
  ctx.view = { ...ctx.view, replaced: null };
}
