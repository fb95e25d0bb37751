import type { AppliedOp, BatchResult, Conflict, Skillbook, SkippedOp } from '@cohort/skillbook';
import { commitOps } from '../../commitOps.ts';
import type { AuditBlock, CommitRecord, IdLease, StoreError } from '../../Store.ts';
import { contentConflicts, joinConflicts } from './contentConflicts.ts';
import { IdLeases } from './IdLeases.ts';
import type { LeaseRecord } from './IdLeases.ts';
import { remapIds } from './remapIds.ts';
import type { IdOrigins, Remapped } from './remapIds.ts';
import { illFormedText } from '../illFormedText.ts';
import { malformedCommit } from './malformedCommit.ts';

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
  /** The id leases granted (a record: the state is a value). */
  readonly leases: LeaseRecord;
}

/** What {@link CommitSequencer.apply} decided. */
export type SequencedCommit =
  | {
      readonly ok: true;
      readonly book: Skillbook;
      /** The commit's blocks as applied: ids re-mapped, ops that changed nothing dropped (and blocks left empty). */
      readonly blocks: readonly AuditBlock[];
      readonly idMap: ReadonlyMap<string, string>;
    }
  | { readonly ok: false; readonly error: StoreError };

const MAX_BOUNDARIES = 64;

/** What {@link CommitSequencer.apply} checked: the conflicts, or the ops as remapped and their replay. */
type Checked = { readonly conflicts: Conflict[] } | { readonly remapped: Remapped; readonly replayed: BatchResult };

/**
 * Sequences appends against the store's book — decides each and gives it the next revision —
 * the same way for every adapter: the base a commit was merged on (see `CommitRecord.basis`), the conflicts since then (the skillbook's
 * per-skill revisions, and content comparison across changes that did not arrive as ops),
 * ids (final when chosen or leased), then a byte-exact replay. Also grants id leases. Pure: no I/O.
 */
export class CommitSequencer {
  private s: Omit<SequencerState, 'leases'>;
  private leases: IdLeases;

  constructor(book: Skillbook, leases?: LeaseRecord) {
    this.leases = new IdLeases(leases);
    this.s = { book: book.reserveIds(this.leases.through), floor: book.revision, boundaries: [], divergence: null };
  }

  get book(): Skillbook {
    return this.s.book;
  }

  get state(): SequencerState {
    return { ...this.s, leases: this.leases.record() };
  }

  /** The leases granted so far, as a ledger records them. */
  get leaseRecord(): LeaseRecord {
    return this.leases.record();
  }

  /** Puts back a state taken earlier (a group of appends that did not become durable). */
  restore(state: SequencerState): void {
    const { leases, ...rest } = state;
    this.s = rest;
    this.leases = new IdLeases(leases);
  }

  /** Grants the next `count` numbers of the id counter; the book's `next_id` moves past them. */
  lease(count: number): IdLease {
    const lease = this.leases.grant(count, this.s.book.nextId);
    this.s = { ...this.s, book: this.s.book.reserveIds(lease.to - 1) };
    return lease;
  }

  /** Records a lease another writer was granted (read from the journal). */
  takeLease(lease: IdLease): void {
    this.leases.take(lease);
    this.s = { ...this.s, book: this.s.book.reserveIds(this.leases.through) };
  }

  /** Records another writer's leases: the ranges its ledger holds and those granted past it. */
  takeLeases(record: LeaseRecord, leases: readonly IdLease[]): void {
    this.leases.takeAll(record);
    for (const lease of leases) this.leases.take(lease);
    this.s = { ...this.s, book: this.s.book.reserveIds(this.leases.through) };
  }

  /** Whether number `n` of the id counter was leased. */
  leased(n: number): boolean {
    return this.leases.covers(n);
  }

  /** The client has taken in every result: its next base is a revision the store reported (see `ResyncWindow`). */
  resync(): void {
    this.s = { ...this.s, divergence: null };
  }

  /** Moves to a book that follows from the current one by ops (another Cohort writer's journal lines). */
  advance(book: Skillbook): void {
    this.s = { ...this.s, book: book.reserveIds(this.leases.through) };
  }

  /** Moves to a book that does not follow by ops (another writer's document, a reload); later commits based before it are checked by content. */
  absorb(next: Skillbook): void {
    const post = next.reserveIds(this.leases.through);
    const boundary: Boundary = { revision: post.revision, pre: this.s.book, post };
    const boundaries = [...this.s.boundaries, boundary];
    const dropped = boundaries.length > MAX_BOUNDARIES ? boundaries.shift() : undefined;
    const floor = dropped ? dropped.revision : this.s.floor;
    this.s = { ...this.s, book: post, boundaries, floor };
  }

  /** Decides one commit and, when it is accepted, moves the book on. */
  apply(commit: CommitRecord): SequencedCommit {
    const malformed = malformedCommit(commit);
    if (malformed) return { ok: false, error: { code: 'invalid_commit', message: `not a commit: ${malformed}` } };
    const illFormed = illFormedText(commit);
    if (illFormed) return { ok: false, error: { code: 'invalid_commit', message: illFormed } };
    const base = this.baseOf(commit);
    if (typeof base === 'object') return { ok: false, error: base };
    const s = this.s;
    const checked = this.checkAndReplay(commit, base);
    if ('conflicts' in checked) return this.refuse(base, conflictError(commit, checked.conflicts));
    const { remapped, replayed } = checked;
    if (!replayed.ok) {
      return this.refuse(base, {
        code: 'invalid_commit',
        message: `commit of ${commit.sessionId} cannot be applied: ${replayed.error.message}`,
        cause: replayed.error,
      });
    }
    const missing: Conflict[] = replayed.skipped
      .filter((k) => k.code === 'no_skill')
      .map((k) => ({
        opIndex: k.opIndex,
        type: k.type,
        skillId: k.skillId ?? '',
        reason: 'removed',
        revision: s.book.revision,
      }));
    if (missing.length > 0) return this.refuse(base, conflictError(commit, missing));
    const book = replayed.book;
    const changed = book !== s.book;
    const exact = base === commit.expectedRevision && (!changed || book.revision === commit.expectedRevision + 1);
    const divergence = exact ? s.divergence : Math.min(s.divergence ?? base, base);
    this.s = { ...s, book, divergence };
    return {
      ok: true,
      book,
      blocks: changed ? blocksAsApplied(commit.entries, remapped.ops, replayed.skipped) : [],
      idMap: remapped.idMap,
    };
  }

  /**
   * The id check (`remapIds`), the conflicts since `base`, and — when there are none — the
   * replay. A commit whose ADD ids are all final (`leased`) keeps every op as it is, and the only
   * thing the id check can find in it, an ADD whose id is taken, the replay refuses too: so the
   * id check runs only once the commit is refused anyway, to say which ops conflict: it costs a
   * set of every id and a copy of every op, which a root's large commit would pay (bench row 2a).
   */
  private checkAndReplay(commit: CommitRecord, base: number): Checked {
    const book = this.s.book;
    const ops = commitOps(commit);
    const origins: IdOrigins = { explicit: new Set(commit.explicitIds ?? []), allocation: commit.allocation ?? 'unleased' };
    let remapped = origins.allocation === 'leased' ? null : remapIds(book, ops, origins, this.leases);
    const since = this.conflictsSince(remapped?.ops ?? ops, base);
    if (since.length === 0 && (remapped?.conflicts.length ?? 0) === 0) {
      const replayed = book.replay(remapped?.ops ?? ops);
      if (replayed.ok || remapped) return { remapped: remapped ?? { ops, idMap: new Map(), conflicts: [] }, replayed };
      // refused: were some ADD ids taken?
      remapped = remapIds(book, ops, origins, this.leases);
      if (remapped.conflicts.length === 0) return { remapped, replayed };
    }
    remapped ??= remapIds(book, ops, origins, this.leases);
    return { conflicts: joinConflicts([remapped.conflicts, since]) };
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
      return {
        code: 'revision_mismatch',
        message: `commit of ${commit.sessionId} expects revision ${expected}; the store is at ${s.book.revision}`,
      };
    }
    let base = divergence === null ? expected : Math.min(expected, divergence);
    // a base inside a change that did not arrive as ops never existed here: check from before it
    for (const b of s.boundaries) if (base > b.pre.revision && base < b.revision) base = b.pre.revision;
    if (base < s.floor) {
      return {
        code: 'revision_mismatch',
        message: `commit of ${commit.sessionId} is based on revision ${base}, before the oldest revision this store can check (${s.floor})`,
      };
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
    return joinConflicts(lists);
  }
}

/**
 * The commit's blocks with its ops as applied (`ops`, in the same order), less the ops that
 * were skipped as changing nothing; each block's list is a copy (the history must not share
 * the client's lists).
 */
function blocksAsApplied(entries: readonly AuditBlock[], ops: readonly AppliedOp[], skipped: readonly SkippedOp[]): AuditBlock[] {
  const dropped = skipped.length === 0 ? null : new Set(skipped.map((k) => k.opIndex));
  const out: AuditBlock[] = [];
  let index = 0;
  for (const block of entries) {
    const kept = dropped === null ? ops.slice(index, index + block.ops.length) : keptOps(ops, index, block.ops.length, dropped);
    index += block.ops.length;
    if (kept.length > 0) out.push({ ...block, ops: kept });
  }
  return out;
}

/** The ops of one block (from `index`, `count` of them) that were not dropped. */
function keptOps(ops: readonly AppliedOp[], index: number, count: number, dropped: ReadonlySet<number>): AppliedOp[] {
  const kept: AppliedOp[] = [];
  for (let i = index; i < index + count; i += 1) {
    const op = ops[i];
    if (op && !dropped.has(i)) kept.push(op);
  }
  return kept;
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
