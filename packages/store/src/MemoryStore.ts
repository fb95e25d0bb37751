import { Subject } from 'rxjs';
import type { Observable } from 'rxjs';
import { Skillbook } from '@cohort/skillbook';
import type { AppendResult, CommitRecord, Store, StoreSnapshot } from './Store.ts';
import type { StoreClock } from './StoreClock.ts';
import { systemStoreClock } from './StoreClock.ts';
import type { StoreNotice } from './StoreNotice.ts';
import { CommitSequencer } from './internal/CommitSequencer.ts';
import { occurrenceId } from './internal/digest.ts';
import { ResyncWindow } from './internal/ResyncWindow.ts';

/** Options of a {@link MemoryStore}. */
export interface MemoryStoreOptions {
  /** Time for notices (default: the system clock). */
  readonly clock?: StoreClock;
  /** What notices name as their document (default `memory`). */
  readonly name?: string;
}

/**
 * The default store: the root book in memory, no I/O. Appends are decided exactly as the
 * file store decides them (same conflict checks, id re-mapping and replay), so a runtime
 * behaves the same on both; nothing survives the process.
 *
 * @example
 * ```ts
 * const store = new MemoryStore();
 * const { book, revision } = await store.load();
 * const result = await store.append({ expectedRevision: revision, sessionId: 's1', path: ['s1'], ops, at: Date.now() });
 * ```
 */
export class MemoryStore implements Store {
  readonly kind = 'memory';
  private readonly sequencer: CommitSequencer;
  private readonly notices = new Subject<StoreNotice>();
  readonly notices$: Observable<StoreNotice> = this.notices.asObservable();
  private readonly clock: StoreClock;
  private readonly name: string;
  private readonly resync: ResyncWindow;
  private closed = false;

  constructor(initial: Skillbook = Skillbook.empty(), options: MemoryStoreOptions = {}) {
    this.sequencer = new CommitSequencer(initial);
    this.clock = options.clock ?? systemStoreClock;
    this.name = options.name ?? 'memory';
    this.resync = new ResyncWindow(this.clock, this.sequencer);
  }

  /** The current book and its revision. */
  async load(): Promise<StoreSnapshot> {
    const book = this.sequencer.book;
    return { book, revision: book.revision };
  }

  /** Decides and applies `commit` (see {@link CommitRecord}); never rejects. */
  append(commit: CommitRecord): Promise<AppendResult> {
    this.resync.opened();
    const result = Promise.resolve(this.decide(commit));
    void result.then(() => this.resync.settled());
    return result;
  }

  private decide(commit: CommitRecord): AppendResult {
    if (this.closed) return { ok: false, error: { code: 'closed', message: 'the store is closed' } };
    let decided;
    try {
      decided = this.sequencer.apply(commit);
    } catch (error) {
      return { ok: false, error: { code: 'invalid_commit', message: `commit of ${commit.sessionId} cannot be applied`, cause: error } };
    }
    if (!decided.ok) return decided;
    const revision = decided.book.revision;
    if (Object.keys(decided.idMap).length === 0) return { ok: true, revision, book: decided.book };
    this.notices.next({
      type: 'store.ids_remapped',
      id: occurrenceId('ids_remapped', this.name, commit.sessionId, revision),
      at: this.clock.now(),
      document: this.name,
      sessionId: commit.sessionId,
      path: [...commit.path],
      revision,
      idMap: { ...decided.idMap },
    });
    return { ok: true, revision, book: decided.book, idMap: decided.idMap };
  }

  /** Refuses further appends and completes `notices$`. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.resync.dispose();
    this.notices.complete();
  }
}
