import type { Observable } from 'rxjs';
import type { AppliedOp, Conflict, PlainSkill, Skillbook } from '@cohort/skillbook';
import type { LockHolder, StoreNotice } from './StoreNotice.ts';

/** The durable state a store opens with: the root book and its revision (`book.revision === revision`). */
export interface StoreSnapshot {
  readonly book: Skillbook;
  readonly revision: number;
}

/**
 * A block of the store's one global id counter (ACE's `next_id`: ids are
 * `<section>-<5 digits>` over one counter for all sections): the numbers `from` up to, not
 * including, `to`. A writer that allocates ids on its own draws them from its leases; the
 * store never grants a number twice, across processes and restarts.
 */
export interface IdLease {
  readonly from: number;
  readonly to: number;
}

/** The result of {@link Store.leaseIds}. */
export type LeaseResult = { readonly ok: true; readonly lease: IdLease } | { readonly ok: false; readonly error: StoreError };

/**
 * One contiguous block of a commit's audit: the ops one session wrote, in the order they were
 * applied (applied ops: final ids, `at` timestamps).
 */
export interface AuditBlock {
  /** The session, unique across processes and time. */
  readonly sessionId: string;
  /** Root … this session. */
  readonly path: readonly string[];
  readonly name?: string;
  readonly ops: readonly AppliedOp[];
  /** Clock time at which the block was written or merged, in ms. */
  readonly at: number;
}

/**
 * One merged commit, as a runtime's root hands it to the store. `expectedRevision` is the
 * revision the client believes is current (compare-and-set); `entries` are its audit, one
 * block per session, whose ops in order are the commit's ops.
 *
 * When the store's revision is past `expectedRevision` (other committers, other writers), the
 * store checks the ops against everything that changed since: no conflict → applied on top;
 * a conflict → refused with code `conflict`. An op on a skill the store does not have is a
 * conflict too, so nothing is acknowledged that did not land; an op that would change
 * nothing (a REMOVE of a removed skill) is dropped, not journaled.
 */
export interface CommitRecord {
  readonly expectedRevision: number;
  /**
   * Where `expectedRevision` comes from. `speculative` (the default): the client's own
   * numbering, continuing from a revision the store reported through the client's appends
   * still in flight (a runtime's root does this); after a refused or re-based append the
   * store then checks against everything since the last revision both sides agree on.
   * `store`: a revision the store reported (a snapshot's, or an append result's), checked
   * exactly.
   */
  readonly basis?: 'store' | 'speculative';
  /** The root session that merged the commit. */
  readonly sessionId: string;
  readonly path: readonly string[];
  readonly entries: readonly AuditBlock[];
  /** Ids of ADDs whose `skill_id` the session chose itself: final; one that exists is a conflict (`id_exists`). */
  readonly explicitIds?: readonly string[];
  /**
   * Where the commit's other ADD ids were allocated. `leased`: from leases this store granted
   * ({@link Store.leaseIds}) — final, never renumbered (one that exists is `id_exists`, which
   * writers that lease never cause). `unleased` (the default, for clients that do not lease
   * yet): an id another writer took meanwhile, or that falls in a lease, is renumbered, and
   * the result's `idMap` says so.
   */
  readonly allocation?: 'leased' | 'unleased';
  /** Clock time of the merge, in ms. */
  readonly at: number;
}

/** Stable codes of every way a store can refuse. */
export type StoreErrorCode = 'conflict' | 'revision_mismatch' | 'io' | 'closed' | 'locked' | 'invalid_commit' | 'invalid_request';

/** A structured store refusal; `conflicts` are set for code `conflict`, `holder` for code `locked`. */
export interface StoreError {
  readonly code: StoreErrorCode;
  readonly message: string;
  readonly conflicts?: readonly Conflict[];
  /** Who holds the writer lock (code `locked`). */
  readonly holder?: LockHolder;
  readonly cause?: unknown;
}

/**
 * The result of an append. On success the commit is durable, and `book` is the store's
 * authoritative root book after it (it may include what other writers did).
 */
export type AppendResult =
  | {
      readonly ok: true;
      readonly revision: number;
      readonly book: Skillbook;
      /** Unleased ADD ids the store renumbered (id → id in the book; see `CommitRecord.allocation`); absent when none. */
      readonly idMap?: ReadonlyMap<string, string>;
      /**
       * The commit's audit blocks as persisted — ids as in the book, the ops that changed
       * nothing (a REMOVE of a removed skill) left out, and blocks left empty dropped; `[]` when
       * nothing was journaled. What `history()` holds for the commit. An adapter that leaves it
       * out makes its clients assume every op was persisted.
       */
      readonly entries?: readonly AuditBlock[];
    }
  | { readonly ok: false; readonly error: StoreError };

/** An audit block as persisted: the revision its commit produced. */
export interface PersistedBlock extends AuditBlock {
  readonly revision: number;
}

/** Why a store took in changes that did not arrive as ops. */
export type ExternalReason = 'created' | 'adopted' | 'rebased' | 'forked' | 'force_saved';

/**
 * Changes a store took in that did not arrive as ops — the content it was created with, a
 * document another program wrote — as the skills it then held: each skill added or changed
 * (whole), the ids deleted outright, and the writer's `next_id`. `Skillbook.adopt` replays it.
 */
export interface ExternalChange {
  readonly reason: ExternalReason;
  readonly skills: readonly PlainSkill[];
  readonly purged: readonly string[];
  readonly nextId: number;
  /** External skills the store gave new ids (their id collided with one of Cohort's, or fell in a lease). */
  readonly renumbered: ReadonlyMap<string, string>;
  /** sha256 of the other program's document it took in (absent for the content a store was created with, and in history written before it was recorded). */
  readonly document?: string;
}

/**
 * One persisted commit, in revision order. `kind: 'commit'`: a runtime's root commit with its
 * audit blocks. `kind: 'external'`: changes taken in from another writer, attributed to the
 * pseudo-session `external` (one block without ops) and described by `external`.
 */
export interface PersistedCommit {
  readonly kind: 'commit' | 'external';
  /** The revision the commit produced. */
  readonly revision: number;
  /** The store writer (process) that persisted it. */
  readonly writerId: string;
  readonly sessionId: string;
  readonly path: readonly string[];
  readonly at: number;
  readonly entries: readonly PersistedBlock[];
  /** For `kind: 'external'`: what was taken in (absent in history written before it was recorded). */
  readonly external?: ExternalChange;
}

/** Which page of the history to read: commits past revision `after` (default: from the start), at most `limit` (default 100). */
export interface HistoryOptions {
  readonly after?: number;
  readonly limit?: number;
}

/** A page of the history: the commits, and the `after` of the next page (`null`: none). */
export type HistoryPage =
  | { readonly ok: true; readonly commits: readonly PersistedCommit[]; readonly next: number | null }
  | { readonly ok: false; readonly error: StoreError };

/**
 * A root commit its runtime refused itself, for its conflicts with the runtime's own merges
 * still on their way to the store: the store never saw it, and records it only when asked
 * ({@link Store.recordRefused}).
 */
export interface RefusedCommit {
  readonly sessionId: string;
  readonly path: readonly string[];
  /** The revision the commit was based on, as the runtime numbered it. */
  readonly expectedRevision: number;
  readonly message: string;
  readonly conflicts: readonly Conflict[];
  /** Clock time of the refusal, in ms. */
  readonly at: number;
}

/**
 * Where the runtime's root book lives. `append` resolves only once the commit is durable;
 * nothing rejects: failures are values. `notices$` reports what the store did on its own
 * (adopted, rebased, forked, torn tail cut, …), once per occurrence.
 */
export interface Store {
  readonly kind: string;
  /** Catches up with other writers and returns the current book. */
  load(): Promise<StoreSnapshot>;
  /** The book the store holds now, without waiting; `null` while a store that loads asynchronously has not loaded yet. */
  current(): StoreSnapshot | null;
  append(commit: CommitRecord): Promise<AppendResult>;
  /** Grants the next `count` numbers of the global id counter, durably (see {@link IdLease}). */
  leaseIds(count: number): Promise<LeaseResult>;
  /** Reads persisted commits in revision order, a page at a time; replaying them all from the empty book reproduces the book. */
  history(options?: HistoryOptions): Promise<HistoryPage>;
  /** The notices the store raised while it opened (replayed to `notices$` subscribers too). */
  readonly openNotices: readonly StoreNotice[];
  readonly notices$: Observable<StoreNotice>;
  /**
   * The books other writers' commits produced (other processes or machines on the same
   * database), as the store takes them in without an append of its own; the newest is replayed
   * to a new subscriber. A runtime's root follows it, so sessions spawned afterwards start from
   * those skills. Optional: a store only this process writes has none.
   */
  readonly external$?: Observable<StoreSnapshot> | undefined;
  /**
   * Records a commit the runtime refused before it reached the store, so the store's conflict
   * log holds every refused commit, not only those it refused itself. Without waiting;
   * `close()` waits for it. Optional: a store without a conflict log of refusals has none.
   */
  recordRefused?(refused: RefusedCommit): void;
  close(): Promise<void>;
}
