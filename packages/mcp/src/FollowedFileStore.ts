import { unwatchFile, watchFile } from 'node:fs';
import type {
  AppendResult,
  CommitRecord,
  FileStore,
  HistoryOptions,
  HistoryPage,
  LeaseResult,
  Store,
  StoreNotice,
  StoreSnapshot,
} from '@cohort/store';
import { BehaviorSubject, filter, type Observable } from 'rxjs';

/**
 * A file store that notices other writers between its own writes. A `FileStore` takes in
 * another process's commits and ACE's saves when it next writes or loads; this one also watches
 * the document and its journal (`fs.watchFile`, a `stat` every `intervalMs`) and, when either
 * changed, loads — so the runtime's root book, and the MCP clients told of it, follow the file
 * without waiting for a write of their own. Its books are on `external$`, as a PostgreSQL
 * store's are.
 *
 * @example
 * const opened = await FileStore.open('data/skillbook.json');
 * if (opened.ok) createRuntime({ store: new FollowedFileStore(opened.store) });
 */
export class FollowedFileStore implements Store {
  readonly kind = 'file';
  private readonly books: BehaviorSubject<StoreSnapshot>;
  private readonly files: readonly string[];
  private loading: Promise<void> | null = null;
  private again = false;
  private stopped = false;
  private readonly first: NodeJS.Timeout;

  constructor(
    readonly file: FileStore,
    intervalMs = 250,
  ) {
    this.books = new BehaviorSubject(file.current());
    this.files = [file.path, `${file.path}.journal`];
    for (const path of this.files) watchFile(path, { interval: intervalMs, persistent: false }, () => this.look());
    // a watcher compares with its first stat: a change made before that stat is found by this look
    this.first = setTimeout(() => this.look(), 2 * intervalMs);
    this.first.unref();
  }

  get notices$(): Observable<StoreNotice> {
    return this.file.notices$;
  }

  get openNotices(): readonly StoreNotice[] {
    return this.file.openNotices;
  }

  load(): Promise<StoreSnapshot> {
    return this.file.load();
  }

  current(): StoreSnapshot {
    return this.file.current();
  }

  append(commit: CommitRecord): Promise<AppendResult> {
    return this.file.append(commit);
  }

  leaseIds(count: number): Promise<LeaseResult> {
    return this.file.leaseIds(count);
  }

  history(options?: HistoryOptions): Promise<HistoryPage> {
    return this.file.history(options);
  }

  get external$(): Observable<StoreSnapshot> {
    const start = this.books.value.revision;
    return this.books.pipe(filter((s) => s.revision > start));
  }

  /** One load at a time; a change seen while one runs starts another after it. */
  private look(): void {
    if (this.stopped) return;
    if (this.loading) {
      this.again = true;
      return;
    }
    this.loading = this.file
      .load()
      .then((snapshot) => {
        if (snapshot.revision > this.books.value.revision) this.books.next(snapshot);
      })
      .catch(() => {})
      .finally(() => {
        this.loading = null;
        if (this.again) {
          this.again = false;
          this.look();
        }
      });
  }

  async close(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.first);
    for (const path of this.files) unwatchFile(path);
    await this.loading;
    this.books.complete();
    await this.file.close();
  }
}
