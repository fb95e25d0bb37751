import type { Observable } from 'rxjs';
import type { Skillbook } from '@cohort/skillbook';
import type { FileStoreOptions, ResolvedFileStoreOptions } from './FileStoreOptions.ts';
import { checkFileStoreOptions, resolveFileStoreOptions } from './FileStoreOptions.ts';
import type { AppendResult, CommitRecord, HistoryOptions, HistoryPage, LeaseResult, Store, StoreError, StoreSnapshot } from './Store.ts';
import type { OpenResult } from './StoreOpenError.ts';
import { openFailure } from './StoreOpenError.ts';
import { documentPathProblem } from './internal/disk/documentPath.ts';
import type { StoreNotice } from './StoreNotice.ts';
import { openFileStore } from './internal/worker/openFileStore.ts';
import type { DiskView } from './internal/disk/DiskView.ts';
import type { StoreContext } from './internal/worker/StoreContext.ts';
import { HistoryReader } from './internal/journal/HistoryReader.ts';
import { StoreWorker } from './internal/worker/StoreWorker.ts';
import { faithfulSeams } from './internal/external/StoreSeams.ts';
import type { StoreSeams } from './internal/external/StoreSeams.ts';

/**
 * The embedded durable store: an ACE schema-v2 document (`skillbook.json`, byte-compatible
 * with ACE), beside it an append-only journal of merged commits with checksums and a hash
 * chain, a revision ledger, a base copy, a writer lock and a conflict log (docs/persistence.md).
 *
 * - An append resolves once its journal line is fsynced; appends arriving while an fsync is
 *   in flight share the next one (group commit).
 * - The document is rewritten atomically when the journal passes `checkpointEvery` entries and
 *   `checkpointJournalRatio` of the document's size,
 *   after `idleCheckpointMs` without appends, and on `close()`.
 * - Before every write it compares the ledger, the journal and the document with what it
 *   last saw: another Cohort writer's commits are replayed; a document another program (ACE)
 *   saved is reconciled three ways against the version it started from, only real conflicts
 *   leaving the other side in a bounded recovery copy; one typed notice per occurrence.
 *
 * @example
 * ```ts
 * const opened = await FileStore.open('data/skillbook.json');
 * if (!opened.ok) throw new Error(describeOpenError(opened.error));
 * const rt = createRuntime({ store: opened.store });
 * ```
 */
export class FileStore implements Store {
  readonly kind = 'file';
  readonly notices$: Observable<StoreNotice>;
  private readonly worker: StoreWorker;
  private readonly reader: HistoryReader;

  private constructor(
    private readonly ctx: StoreContext,
    view: DiskView,
  ) {
    this.notices$ = ctx.notices.notices$;
    this.worker = new StoreWorker(ctx, view);
    this.reader = new HistoryReader(ctx.fs, ctx.paths);
  }

  /**
   * Opens the store of the document at `path`, creating the document when it does not exist.
   * A document opened under a symbolic link is opened as the file the link points to. Never
   * throws: fails (as a value, writing nothing) on a path that names no file, corruption before
   * the journal's tail, an unreadable document or base, a document of another schema version, a
   * symbolic link planted as one of the store's files, a lock it could not get, or a directory
   * it may not write.
   */
  static open(path: string, options: FileStoreOptions = {}): Promise<OpenResult<FileStore>> {
    return FileStore.openWith(path, options, faithfulSeams);
  }

  /**
   * {@link FileStore.open} with some of its parts replaced: how `@cohort/store/mutants` builds
   * deliberately broken variants for testing checkers. Not for use otherwise.
   *
   * @internal
   */
  static async openWith(path: string, options: FileStoreOptions, seams: StoreSeams): Promise<OpenResult<FileStore>> {
    const badPath = documentPathProblem(path);
    if (badPath) return { ok: false, error: { code: 'invalid_options', message: badPath, file: String(path) } };
    const bad = checkFileStoreOptions(options);
    if (bad) return { ok: false, error: { code: 'invalid_options', message: `invalid options: ${bad}`, file: path } };
    try {
      const resolved: ResolvedFileStoreOptions = resolveFileStoreOptions(options);
      const opened = await openFileStore(resolved, path, seams);
      if (!opened.ok) return opened;
      const notices = opened.ctx.notices.openNotices;
      opened.ctx.notices.markOpened();
      return { ok: true, store: new FileStore(opened.ctx, opened.view), notices };
    } catch (error) {
      // a defect: still a value, as promised
      return { ok: false, error: openFailure(error, path) };
    }
  }

  /** The document's path. */
  get path(): string {
    return this.ctx.paths.document;
  }

  /** This writer's id (lock, ledger, journal lines). */
  get writerId(): string {
    return this.ctx.options.writerId;
  }

  /** The store's current book (acknowledged merges, and what it took in from other writers). */
  get book(): Skillbook {
    return this.ctx.sequencer.book;
  }

  /** The book the store holds now (loaded by `open`): never `null` for a file store. */
  current(): StoreSnapshot {
    const book = this.ctx.sequencer.book;
    return { book, revision: book.revision };
  }

  /** The notices opening the store raised (they are also replayed to every `notices$` subscriber). */
  get openNotices(): readonly StoreNotice[] {
    return this.ctx.notices.openNotices;
  }

  /**
   * Grants the next `count` ids of the global counter (at most 1,000,000), recorded in the
   * journal under the writer lock and fsynced before it resolves — never granted again, by any
   * process, after any restart. The document's `next_id` stays past it.
   */
  leaseIds(count: number): Promise<LeaseResult> {
    return this.worker.lease(count);
  }

  /**
   * Reads the persisted commits past revision `after`, at most `limit` (default 100), from the
   * journal — every writer's, and the changes taken in from other programs — in revision
   * order; `next` is the `after` of the next page, `null` at the end.
   */
  history(options: HistoryOptions = {}): Promise<HistoryPage> {
    return this.reader.page(Number.MAX_SAFE_INTEGER, options);
  }

  /** Catches up with the files (other writers) and returns the current book. */
  async load(): Promise<StoreSnapshot> {
    await this.worker.refresh();
    const book = this.ctx.sequencer.book;
    return { book, revision: book.revision };
  }

  /** Appends a merged commit; resolves once it is durable, or with a structured refusal. Never rejects. */
  append(commit: CommitRecord): Promise<AppendResult> {
    return this.worker.submit(commit);
  }

  /** Rewrites the document now (as the idle timer would). */
  checkpoint(): Promise<{ readonly ok: true } | { readonly ok: false; readonly error: StoreError }> {
    return this.worker.checkpoint('idle');
  }

  /** Waits for queued appends, rewrites the document, releases everything and completes `notices$`. */
  close(): Promise<void> {
    return this.worker.close();
  }
}
