import { dirname, join } from 'node:path';
import { Skillbook } from '@cohort/skillbook';
import type { ResolvedFileStoreOptions } from '../../FileStoreOptions.ts';
import type { StoreFs } from '../../StoreFs.ts';
import type { StoreOpenError } from '../../StoreOpenError.ts';
import { atomicWrite } from '../disk/atomicWrite.ts';
import { writeCheckpoint } from '../checkpoint/checkpoint.ts';
import { CommitSequencer } from '../sequencing/CommitSequencer.ts';
import { sha256Hex, utf8 } from '../disk/digest.ts';
import type { Ledger } from '../disk/Ledger.ts';
import { NoticeLog } from '../disk/NoticeLog.ts';
import { parseDocument, readDisk, readText } from '../disk/readDisk.ts';
import type { DiskRead } from '../disk/readDisk.ts';
import { reconcileExternal } from '../external/reconcileExternal.ts';
import { RecoveryCopies } from '../disk/RecoveryCopies.ts';
import { BaseVersions } from '../external/BaseVersions.ts';
import { RenumberMemory } from '../external/RenumberMemory.ts';
import { faithfulSeams } from '../external/StoreSeams.ts';
import type { StoreSeams } from '../external/StoreSeams.ts';
import { ensureJournal, noticeBase, syncJournal } from './StoreContext.ts';
import type { StoreContext } from './StoreContext.ts';
import type { StorePaths } from '../disk/StorePaths.ts';
import { isTemporary, tempPath } from '../disk/StorePaths.ts';
import { cutInterrupted, cutTornTail } from './syncWithDisk.ts';
import type { DiskView } from '../disk/DiskView.ts';
import { initialView } from '../disk/DiskView.ts';
import { WriterLock } from '../disk/WriterLock.ts';
import type { LockAttempt } from '../disk/WriterLock.ts';
import { resolveDocument } from '../disk/documentPath.ts';
import { directoryMode, withFileMode } from '../disk/fileModeFs.ts';

/** The mode of a new store's files when no `fileMode` is given (less the umask). */
const DEFAULT_FILE_MODE = 0o644;
import { storePaths } from '../disk/StorePaths.ts';
import { openFailure } from '../../StoreOpenError.ts';
import { writeOrigin } from '../journal/originFile.ts';
import type { IdLease } from '../../Store.ts';

/** An opened store: its context and the view of its files after the open. */
export type Opened = { ok: true; ctx: StoreContext; view: DiskView } | { ok: false; error: StoreOpenError };

type Shared = Pick<StoreContext, 'lock' | 'notices'> & { readonly seams: StoreSeams };
type LockTakeover = NonNullable<Extract<LockAttempt, { ok: true }>['takeover']>;

function contextFor(
  options: ResolvedFileStoreOptions,
  paths: StorePaths,
  shared: Shared,
  book: Skillbook,
  ledger: Ledger,
  leases: readonly IdLease[] = [],
  atLedger: Skillbook = book,
): StoreContext {
  const sequencer = new CommitSequencer(book, ledger.leases);
  if (leases.length > 0) sequencer.takeLeases(ledger.leases, leases);
  const versions = new BaseVersions();
  // the document as of the ledger is a version another writer may have loaded
  versions.keep({ source: 'cohort', digest: ledger.contentDigest, book: atLedger, revision: atLedger.revision, at: ledger.at });
  return {
    fs: options.fs,
    paths,
    options,
    ...shared,
    failures: 0,
    sequencer,
    copies: new RecoveryCopies(options.fs, paths),
    versions,
    renumbered: new RenumberMemory(ledger.renumbered),
  };
}

/** A ledger placeholder for a document being created or first adopted (the checkpoint replaces it). */
function initialLedger(writerId: string, revision: number, digest: string): Ledger {
  return {
    format: 'cohort-ledger/2',
    revision,
    contentDigest: digest,
    chain: digest,
    writerId,
    journalOffset: 0,
    lineage: null,
    at: 0,
    leases: { through: 0, ranges: [] },
    renumbered: [],
    checkpoints: [],
  };
}

/** Starts the files of a document: `text` is another writer's document taken as it is (else the book's own). */
async function startTracking(ctx: StoreContext, view: DiskView, text: string | undefined, rewriteDocument: boolean): Promise<DiskView> {
  await ensureJournal(ctx);
  const start = { ...view, journalEnd: (await ctx.fs.stat(ctx.paths.journal))?.size ?? 0 };
  const book = ctx.sequencer.book;
  // what the store starts with is its history's first change, so that replaying the history reproduces the book
  if (book.size > 0) await writeOrigin(ctx.fs, ctx.paths, { book, writer: ctx.options.writerId, at: ctx.options.clock.now() });
  else await ctx.fs.unlink(ctx.paths.origin).catch(() => undefined);
  const written = await writeCheckpoint(ctx, start, {
    book,
    ...(text === undefined ? {} : { text }),
    reason: 'created',
    rewriteDocument,
    expectFingerprint: null,
    expectDigest: null,
  });
  if (!written.ok) throw new Error(`the document could not be started (${written.reason})`);
  return written.view;
}

/** Finishes a checkpoint a crash interrupted, cuts a torn tail, and takes up the journal. */
async function resume(ctx: StoreContext, view: DiskView, read: Extract<DiskRead, { kind: 'tracked' }>): Promise<DiskView> {
  const { fs, paths } = ctx;
  if (read.rollForward.base) await fs.rename(tempPath(paths.base), paths.base);
  if (read.rollForward.document) await fs.rename(tempPath(paths.document), paths.document);
  if (read.rewriteBase) await atomicWrite(fs, paths.base, utf8(read.baseBook.toJSON()));
  if (read.rollForward.base || read.rollForward.document) {
    await fs.syncDir(paths.dir);
    await ctx.notices.emit({
      type: 'store.saved',
      ...noticeBase(ctx, 'saved', read.ledger.revision, read.ledger.contentDigest, 'recovered'),
      revision: read.ledger.revision,
      digest: read.ledger.contentDigest,
      reason: 'recovered',
      entries: 0,
    });
  }
  await cutTornTail(ctx, read.journal, view.ledger.chain);
  await cutInterrupted(ctx, read.interrupted, read.chain);
  if (read.journal.end > 0) await syncJournal(ctx);
  const journalEnd = read.interrupted?.offset ?? read.journal.end;
  const journalLines = read.journal.lines - (read.interrupted ? 2 : 0);
  return { ...view, since: [...read.since], chain: read.chain, journalEnd, journalLines, docFingerprint: null };
}

/** Reads and checks a document another writer left while no Cohort process ran; a hard error when it cannot be read. */
async function foreignDocument(read: Extract<DiskRead, { kind: 'tracked' }>, fs: StoreFs, paths: StorePaths) {
  const seen = read.document;
  if (!seen || seen.digest === read.ledger.contentDigest || read.rollForward.document) return { ok: true as const, doc: null };
  // only digested so far: read it whole (it may have changed again since: what is read is what counts)
  const doc = await readText(fs, paths.document);
  if (!doc || doc.digest === read.ledger.contentDigest) return { ok: true as const, doc: null };
  const parsed = parseDocument(doc.text, paths.document, read.head.revision + 1);
  if (!parsed.ok) return parsed;
  return { ok: true as const, doc: { text: doc.text ?? '', digest: doc.digest, fingerprint: doc.fingerprint, book: parsed.value } };
}

/**
 * Opens (or creates) the files of a file store under the writer lock: reads and checks them
 * ({@link readDisk}), stops on a hard error before writing anything, then repairs what a
 * crash leaves (an unfinished checkpoint, a torn journal tail) and reconciles a document
 * another writer changed while no Cohort process ran.
 */
export async function openFileStore(options: ResolvedFileStoreOptions, path: string, seams: StoreSeams = faithfulSeams): Promise<Opened> {
  const { clock, writerId } = options;
  let file = path;
  try {
    await options.fs.mkdir(dirname(path), options.fileMode === null ? {} : { mode: directoryMode(options.fileMode) });
    const resolved = await resolveDocument(options.fs, path);
    if (!resolved.ok) return resolved;
    const paths = storePaths(resolved.document);
    file = paths.document;
    const mode = options.fileMode ?? (await options.fs.stat(paths.document))?.mode ?? DEFAULT_FILE_MODE;
    const fs = withFileMode(options.fs, mode);
    const opening: ResolvedFileStoreOptions = { ...options, fs };
    const shared: Shared = {
      seams,
      lock: new WriterLock(fs, paths.lock, writerId, options.process, clock, { leaseMs: options.lockLeaseMs, waitMs: options.lockWaitMs }),
      notices: new NoticeLog(fs, paths.conflicts),
    };
    const attempt = await shared.lock.acquire();
    if (!attempt.ok) {
      return {
        ok: false,
        error: { code: 'locked', message: attempt.message, file: paths.lock, ...(attempt.holder ? { holder: attempt.holder } : {}) },
      };
    }
    try {
      return await openLocked(opening, paths, shared, attempt.takeover);
    } finally {
      await shared.lock.release().catch(() => undefined);
    }
  } catch (error) {
    return { ok: false, error: openFailure(error, file) };
  }
}

/** The context and first view of the files as read (nothing written yet). */
function startContext(
  options: ResolvedFileStoreOptions,
  paths: StorePaths,
  shared: Shared,
  value: DiskRead,
): { ctx: StoreContext; view: DiskView } {
  if (value.kind === 'missing') {
    const book = options.initialBook ?? Skillbook.empty();
    const ledger = initialLedger(options.writerId, book.revision, sha256Hex(book.toJSON()));
    return { ctx: contextFor(options, paths, shared, book, ledger), view: initialView(ledger, book) };
  }
  if (value.kind === 'fresh') {
    const ledger = initialLedger(options.writerId, 0, value.document.digest);
    return { ctx: contextFor(options, paths, shared, value.book, ledger), view: initialView(ledger, value.book) };
  }
  return {
    ctx: contextFor(options, paths, shared, value.head, value.ledger, value.leases, value.baseBook),
    view: initialView(value.ledger, value.baseBook),
  };
}

/** The open, under the writer lock: read and check, stop on a hard error, then repair, reconcile or create. */
async function openLocked(
  options: ResolvedFileStoreOptions,
  paths: StorePaths,
  shared: Shared,
  takeover: LockTakeover | null,
): Promise<Opened> {
  const read = await readDisk(options.fs, paths, { trustSnapshot: true });
  if (!read.ok) return read;
  const value = read.value;
  if (value.kind === 'missing' && !options.create) {
    return { ok: false, error: { code: 'missing_document', message: 'the document does not exist (create: false)', file: paths.document } };
  }
  const foreign = value.kind === 'tracked' ? await foreignDocument(value, options.fs, paths) : { ok: true as const, doc: null };
  if (!foreign.ok) return foreign;
  await shared.notices.load();
  const started = startContext(options, paths, shared, value);
  const ctx = started.ctx;
  let view = started.view;
  if (takeover) {
    const { previous, reason } = takeover;
    await ctx.notices.emit({
      type: 'store.lock_taken_over',
      ...noticeBase(ctx, 'lock_taken_over', previous.writerId, previous.generation),
      lockFile: paths.lock,
      previous,
      generation: previous.generation + 1,
      reason,
    });
  }
  if (value.kind === 'missing') view = await startTracking(ctx, view, undefined, true);
  else if (value.kind === 'fresh') view = await startTracking(ctx, view, value.document.text ?? '', false);
  else {
    view = await resume(ctx, view, value);
    if (foreign.doc) view = (await reconcileExternal(ctx, view, foreign.doc)) ?? view;
  }
  await removeTemporaries(ctx);
  return { ok: true, ctx, view };
}

/** Removes the temporary files a crash or a failed write left (a full disk stays full otherwise). */
async function removeTemporaries(ctx: StoreContext): Promise<void> {
  for (const name of await ctx.fs.readdir(ctx.paths.dir)) {
    if (isTemporary(ctx.paths, name)) await ctx.fs.unlink(join(ctx.paths.dir, name)).catch(() => undefined);
  }
}
