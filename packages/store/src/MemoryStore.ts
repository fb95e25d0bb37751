import { Subject } from 'rxjs';
import type { Observable } from 'rxjs';
import { Skillbook } from '@cohort/skillbook';
import type {
  AppendResult,
  CommitRecord,
  HistoryOptions,
  HistoryPage,
  LeaseResult,
  PersistedCommit,
  Store,
  StoreSnapshot,
} from './Store.ts';
import type { StoreClock } from './StoreClock.ts';
import { systemStoreClock } from './StoreClock.ts';
import { die } from './errors.ts';
import type { StoreNotice } from './StoreNotice.ts';
import { CommitSequencer } from './internal/sequencing/CommitSequencer.ts';
import { occurrenceId } from './internal/disk/digest.ts';
import { DEFAULT_HISTORY_LIMIT } from './internal/journal/HistoryReader.ts';
import { validLeaseCount } from './internal/sequencing/IdLeases.ts';
import { createdCommit } from './internal/journal/persistedCommit.ts';
import { ResyncWindow } from './internal/sequencing/ResyncWindow.ts';

/** Options of a {@link MemoryStore}. */
export interface MemoryStoreOptions {
  /** Time for notices (default: the system clock). */
  readonly clock?: StoreClock;
  /** What notices name as their document (default `memory`). */
  readonly name?: string;
  /** This writer's id in its history (default `memory`). */
  readonly writerId?: string;
  /**
   * How many commits of history to keep, the newest (default: all, as the book keeps every
   * skill). A long-running service on a memory store keeps its memory bounded this way;
   * `history()` then starts at the oldest commit kept, and replaying it no longer reproduces
   * the book from the empty one.
   */
  readonly historyLimit?: number;
}

/**
 * The default store: the root book in memory, no I/O. Appends are decided exactly as the
 * file store decides them (same conflict checks, ids and replay), and it keeps its history
 * and leases as the file store does — in memory, so nothing survives the process (and the
 * history grows with every commit, as the book does).
 *
 * @example
 * ```ts
 * const store = new MemoryStore();
 * const { book, revision } = await store.load();
 * const ops = []; // a session's applied ops
 * const result = await store.append({ expectedRevision: revision, sessionId: 's1', path: ['s1'], entries: [{ sessionId: 's1', path: ['s1'], ops, at: 0 }], at: 0 });
 * ```
 */
export class MemoryStore implements Store {
  readonly kind = 'memory';
  readonly openNotices: readonly StoreNotice[] = [];
  private readonly sequencer: CommitSequencer;
  private readonly notices = new Subject<StoreNotice>();
  readonly notices$: Observable<StoreNotice> = this.notices.asObservable();
  private readonly clock: StoreClock;
  private readonly name: string;
  private readonly writerId: string;
  private readonly resync: ResyncWindow;
  private commits: PersistedCommit[] = [];
  private readonly historyLimit: number;
  private closed = false;

  constructor(initial: Skillbook = Skillbook.empty(), options: MemoryStoreOptions = {}) {
    this.sequencer = new CommitSequencer(initial);
    this.clock = options.clock ?? systemStoreClock;
    this.name = options.name ?? 'memory';
    this.writerId = options.writerId ?? 'memory';
    this.historyLimit = options.historyLimit ?? Number.POSITIVE_INFINITY;
    if (!(this.historyLimit >= 1) || (Number.isFinite(this.historyLimit) && !Number.isSafeInteger(this.historyLimit))) {
      die('STORE_INVALID_OPTION', 'MemoryStore', 'historyLimit', 'a positive integer', options.historyLimit);
    }
    this.resync = new ResyncWindow(this.clock, this.sequencer);
    if (initial.size > 0) this.commits.push(createdCommit(initial, this.writerId, this.clock.now()));
  }

  /** The current book and its revision. */
  async load(): Promise<StoreSnapshot> {
    return this.current();
  }

  /** The current book and its revision, at once. */
  current(): StoreSnapshot {
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

  /** Grants the next `count` ids of the global counter (at most 1,000,000); see {@link Store.leaseIds}. */
  async leaseIds(count: number): Promise<LeaseResult> {
    if (this.closed) return { ok: false, error: { code: 'closed', message: 'the store is closed' } };
    if (!validLeaseCount(count))
      return { ok: false, error: { code: 'invalid_request', message: `a lease is 1 to 1,000,000 ids, not ${count}` } };
    return { ok: true, lease: this.sequencer.lease(count) };
  }

  /** The commits past revision `after`, at most `limit` (default 100), in revision order. */
  async history(options: HistoryOptions = {}): Promise<HistoryPage> {
    const after = options.after ?? -1;
    const limit = options.limit ?? DEFAULT_HISTORY_LIMIT;
    if (!Number.isInteger(after) || !Number.isSafeInteger(limit) || limit < 1) {
      return { ok: false, error: { code: 'invalid_request', message: 'history: after must be an integer and limit a positive integer' } };
    }
    let lo = 0;
    let hi = this.commits.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.commits[mid]?.revision ?? 0) <= after) lo = mid + 1;
      else hi = mid;
    }
    lo = Math.max(lo, this.commits.length - this.historyLimit);
    const commits = this.commits.slice(lo, lo + limit);
    const more = lo + limit < this.commits.length;
    return { ok: true, commits, next: more ? (commits[commits.length - 1]?.revision ?? null) : null };
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
    if (decided.blocks.length > 0) {
      this.commits.push({
        kind: 'commit',
        revision,
        writerId: this.writerId,
        sessionId: commit.sessionId,
        path: [...commit.path],
        at: commit.at,
        // Object.assign, not `{ ...b, path, revision }`: on Node 20 a literal that starts with a
        // spread and adds a key gets a hidden class of its own per object, and every read of the
        // history goes megamorphic (bench row 2a)
        entries: decided.blocks.map((b) => Object.assign({}, b, { path: [...b.path], revision })),
      });
      // dropped in batches, so that keeping the newest costs O(1) per commit
      if (this.commits.length >= 2 * this.historyLimit) this.commits = this.commits.slice(-this.historyLimit);
    }
    if (decided.idMap.size === 0) return { ok: true, revision, book: decided.book, entries: decided.blocks };
    this.notices.next({
      type: 'store.ids_remapped',
      id: occurrenceId('ids_remapped', this.name, commit.sessionId, revision),
      at: this.clock.now(),
      document: this.name,
      sessionId: commit.sessionId,
      path: [...commit.path],
      revision,
      idMap: Object.fromEntries(decided.idMap),
    });
    return { ok: true, revision, book: decided.book, idMap: decided.idMap, entries: decided.blocks };
  }

  /** Refuses further appends and completes `notices$`. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.resync.dispose();
    this.notices.complete();
  }
}
