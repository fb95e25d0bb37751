import type { AppliedOp, Conflict, Skillbook } from '@cohort/skillbook';
import type { CommitRecord, StoreError } from '../Store.ts';
import { contentConflicts, mergeConflicts } from './contentConflicts.ts';
import { remapIds } from './remapIds.ts';

/** A change that did not arrive as ops (another writer's document, a reload): its before and after. */
interface Boundary {
  /** The revision of `post`: the first revision after the change. */
  readonly revision: number;
  readonly pre: Skillbook;
  readonly post: Skillbook;
}

/** The sequencer's whole state; immutable, so a group of appends can be undone. */
export interface SequencerState {
  readonly book: Skillbook;
  /** The oldest revision a commit may be based on. */
  readonly floor: number;
  readonly boundaries: readonly Boundary[];
  /** The lowest base of a refused or re-based speculative append since the client last resynced. */
  readonly divergence: number | null;
}

/** What {@link CommitSequencer.apply} decided. */
export type SequencedCommit =
  | {
      readonly ok: true;
      readonly book: Skillbook;
      /** The ops as applied (ids re-mapped). */
      readonly ops: readonly AppliedOp[];
      readonly idMap: Readonly<Record<string, string>>;
    }
  | { readonly ok: false; readonly error: StoreError };

const MAX_BOUNDARIES = 64;

/**
 * Decides appends against the store's book, the same way for every adapter: the base a
 * commit was merged on (see `CommitRecord.basis`), the conflicts since then (the skillbook's
 * per-skill revisions, and content comparison across changes that did not arrive as ops),
 * id re-mapping, then a byte-exact replay. Pure: no I/O.
 */
export class CommitSequencer {
  private s: SequencerState;

  constructor(book: Skillbook) {
    this.s = { book, floor: book.revision, boundaries: [], divergence: null };
  }

  get book(): Skillbook {
    return this.s.book;
  }

  get state(): SequencerState {
    return this.s;
  }

  /** Puts back a state taken earlier (a group of appends that did not become durable). */
  restore(state: SequencerState): void {
    this.s = state;
  }

  /** The client has taken in every result: its next base is a revision the store reported (see `ResyncWindow`). */
  resync(): void {
    this.s = { ...this.s, divergence: null };
  }

  /** Moves to a book that follows from the current one by ops (another Cohort writer's journal lines). */
  advance(book: Skillbook): void {
    this.s = { ...this.s, book };
  }

  /** Moves to a book that does not follow by ops (another writer's document, a reload); later commits based before it are checked by content. */
  absorb(post: Skillbook): void {
    const boundary: Boundary = { revision: post.revision, pre: this.s.book, post };
    const boundaries = [...this.s.boundaries, boundary];
    const dropped = boundaries.length > MAX_BOUNDARIES ? boundaries.shift() : undefined;
    const floor = dropped ? dropped.revision : this.s.floor;
    this.s = { ...this.s, book: post, boundaries, floor };
  }

  /** Decides one commit and, when it is accepted, moves the book on. */
  apply(commit: CommitRecord): SequencedCommit {
    const base = this.baseOf(commit);
    if (typeof base === 'object') return { ok: false, error: base };
    const s = this.s;
    const explicit = new Set(commit.explicitIds ?? []);
    const remapped = remapIds(s.book, commit.ops, explicit);
    const conflicts = mergeConflicts([remapped.conflicts, this.conflictsSince(remapped.ops, base)]);
    if (conflicts.length > 0) return this.refuse(base, conflictError(commit, conflicts));
    const replayed = s.book.replay(remapped.ops);
    if (!replayed.ok) {
      return this.refuse(base, { code: 'invalid_commit', message: `commit of ${commit.sessionId} cannot be applied: ${replayed.error.message}`, cause: replayed.error });
    }
    if (replayed.skipped.length > 0) {
      const missing: Conflict[] = replayed.skipped.map((k) => ({
        opIndex: k.opIndex, type: k.type, skillId: k.skillId ?? '', reason: 'removed', revision: s.book.revision,
      }));
      return this.refuse(base, conflictError(commit, missing));
    }
    const book = replayed.book;
    const exact = base === commit.expectedRevision && book.revision === commit.expectedRevision + 1;
    const divergence = exact ? s.divergence : Math.min(s.divergence ?? base, base);
    this.s = { ...s, book, divergence };
    return { ok: true, book, ops: remapped.ops, idMap: remapped.idMap };
  }

  private refuse(base: number, error: StoreError): SequencedCommit {
    this.s = { ...this.s, divergence: Math.min(this.s.divergence ?? base, base) };
    return { ok: false, error };
  }

  /** The revision to check a commit's ops from, or the refusal when there is none. */
  private baseOf(commit: CommitRecord): number | StoreError {
    const s = this.s;
    const expected = commit.expectedRevision;
    const speculative = (commit.basis ?? 'speculative') === 'speculative';
    if (!speculative) this.s = { ...s, divergence: null };
    const divergence = speculative ? s.divergence : null;
    if (!Number.isInteger(expected) || (expected > s.book.revision && divergence === null)) {
      return { code: 'revision_mismatch', message: `commit of ${commit.sessionId} expects revision ${expected}; the store is at ${s.book.revision}` };
    }
    let base = divergence === null ? expected : Math.min(expected, divergence);
    // a base inside a change that did not arrive as ops never existed here: check from before it
    for (const b of s.boundaries) if (base > b.pre.revision && base < b.revision) base = b.pre.revision;
    if (base < s.floor) {
      return { code: 'revision_mismatch', message: `commit of ${commit.sessionId} is based on revision ${base}, before the oldest revision this store can check (${s.floor})` };
    }
    return base;
  }

  /** Everything that conflicts with `ops` since `base`: by revisions within runs of ops, by content across boundaries. */
  private conflictsSince(ops: readonly AppliedOp[], base: number): Conflict[] {
    const lists: Conflict[][] = [];
    let from = base;
    for (const b of this.s.boundaries) {
      if (b.revision <= from) continue;
      if (from < b.pre.revision) lists.push(b.pre.conflicts(ops, from));
      lists.push(contentConflicts(b.pre, b.post, ops, b.revision));
      from = b.revision;
    }
    if (from < this.s.book.revision) lists.push(this.s.book.conflicts(ops, from));
    return mergeConflicts(lists);
  }
}

function conflictError(commit: CommitRecord, conflicts: readonly Conflict[]): StoreError {
  const first = conflicts[0];
  const what = first ? `${first.type} ${first.skillId} (${first.reason})` : 'an op';
  return {
    code: 'conflict',
    message: `commit of ${commit.sessionId} conflicts with changes since revision ${commit.expectedRevision}: ${what}${conflicts.length > 1 ? ` and ${conflicts.length - 1} more` : ''}`,
    conflicts,
  };
}
