import type { Observable } from 'rxjs';
import type { AppliedOp, Conflict, Skillbook } from '@cohort/skillbook';
import type { LockHolder, StoreNotice } from './StoreNotice.ts';

/** The durable state a store opens with: the root book and its revision (`book.revision === revision`). */
export interface StoreSnapshot {
  readonly book: Skillbook;
  readonly revision: number;
}

/**
 * One merged commit, as the runtime's root supervisor hands it to the store. `expectedRevision`
 * is the revision the runtime believes is current (compare-and-set); `ops` are applied ops
 * (explicit ids, `at` timestamps), so the store can replay them byte-exactly.
 *
 * When the store's revision is past `expectedRevision` (other committers, other writers), the
 * store checks the ops against everything that changed since (DESIGN.md's conflict table):
 * no conflict → the commit is applied on top (its result names the new revision); a conflict
 * → refused with code `conflict`. A replayed op that would do nothing (its target skill is not
 * in the store's book) is a conflict too, so nothing is acknowledged that did not land.
 */
export interface CommitRecord {
  readonly expectedRevision: number;
  /**
   * Where `expectedRevision` comes from. `speculative` (the default): the client's own
   * numbering, continuing from a revision the store reported through the client's appends
   * still in flight (the runtime's root does this); after a refused or re-based append the
   * store then checks against everything since the last revision both sides agree on.
   * `store`: a revision the store reported (a snapshot's, or an append result's), checked
   * exactly.
   */
  readonly basis?: 'store' | 'speculative';
  readonly sessionId: string;
  readonly path: readonly string[];
  readonly ops: readonly AppliedOp[];
  /**
   * Ids of ADDs whose `skill_id` the session chose itself. Every other ADD id is taken to be
   * allocated, and is re-mapped to a fresh id when another writer took it meanwhile (the
   * result's `idMap` says so); an explicit id that was taken is a conflict (`id_exists`).
   */
  readonly explicitIds?: readonly string[];
  /** Clock time of the merge, in ms. */
  readonly at: number;
}

/** Stable codes of every way an append can be refused. */
export type StoreErrorCode = 'conflict' | 'revision_mismatch' | 'io' | 'closed' | 'locked' | 'invalid_commit';

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
 * authoritative root book after it (it may include what other writers did, adopted or rebased).
 */
export type AppendResult =
  | {
      readonly ok: true;
      readonly revision: number;
      readonly book: Skillbook;
      /** ADD ids re-mapped because another writer had taken them (old id → id in the book); absent when none. */
      readonly idMap?: Readonly<Record<string, string>>;
    }
  | { readonly ok: false; readonly error: StoreError };

/**
 * Where the runtime's root book lives. `append` resolves only once the commit is durable;
 * it never rejects: failures are values. `notices$` reports what the store did on its own
 * (adopted, rebased, forked, force-saved, torn tail cut, …), once per occurrence.
 */
export interface Store {
  readonly kind: string;
  load(): Promise<StoreSnapshot>;
  append(commit: CommitRecord): Promise<AppendResult>;
  readonly notices$: Observable<StoreNotice>;
  close(): Promise<void>;
}
