import { findConflicts } from './conflicts.ts';
import { commitChanges, revisionsOfEntry } from './internal/BookState.ts';
import type { ActiveCounts, BookReader, BookState, Changes, Journal, SkillEntry } from './internal/BookState.ts';
import { changedAfter } from './internal/ChangeLog.ts';
import type { ChangedAfter } from './internal/ChangeLog.ts';
import { listValues } from './internal/ChunkedList.ts';
import { shardedGet } from './internal/ShardedMap.ts';
import { applyOne, applyOps } from './internal/engine/applyOps.ts';
import type { RunResult, Write } from './internal/engine/applyOps.ts';
import { parseBatch, parseOnlyOperation } from './parseBatch.ts';
import type { OperationFields } from './parseOperation.ts';
import type { Skillbook } from './Skillbook.ts';
import type { AppliedOp, ApplyOptions, Conflict, Section, Skill, SkillbookErrorInfo, SkillRevisions, SkippedOp } from './types.ts';
import { die } from './errors.ts';

/** The outcome of {@link SkillbookDraft.applyBatch} / {@link SkillbookDraft.replay}: all ops, or none. */
export type DraftBatchResult =
  | { readonly ok: true; readonly book: SkillbookDraft; readonly applied: AppliedOp[]; readonly skipped: SkippedOp[] }
  | { readonly ok: false /** The unchanged draft. */; readonly book: SkillbookDraft; readonly error: SkillbookErrorInfo };

/**
 * The outcome of {@link SkillbookDraft.applyOperation}: the op applied (`applied`) or skipped
 * (`skipped`, as ACE skips an UPDATE of an unknown id); or refused, the draft unchanged.
 */
export type DraftOperationResult =
  | { readonly ok: true; readonly applied: AppliedOp | null; readonly skipped: SkippedOp | null }
  | { readonly ok: false; readonly error: SkillbookErrorInfo };

/**
 * A mutable draft of a {@link Skillbook} (`book.edit()`): the same batches with the same
 * results — all or nothing per batch, one revision per batch that changed anything, the same
 * `AppliedOp`s, ids and per-skill revisions — but written to a journal over the frozen book
 * instead of building a new book each time. `finish()` builds the book once. Like an immer
 * draft it belongs to one owner: hand out what `finish()` returns, never the draft.
 *
 * @example
 * const draft = Skillbook.empty().edit();
 * const r = draft.applyBatch({ operations: [{ type: 'ADD', section: 'harness', issue: 'flaky network' }] });
 * draft.get('harness-00001')?.issue; // 'flaky network'
 * draft.finish().revision;           // 1
 */
export class SkillbookDraft implements BookReader {
  private base: Skillbook;
  private state: BookState;
  /** What was written since `base`: entries by id (new and replaced), added ids in order; `null` until the first change. */
  private journal: Journal | null = null;
  private rev: number;
  private next: number;
  /** The draft's own counts, written in place as runs change them. */
  private readonly counts: Record<Section, number>;

  /** @internal Use `book.edit()`. */
  constructor(
    base: Skillbook,
    state: BookState,
    private readonly wrap: (state: BookState) => Skillbook,
  ) {
    this.base = base;
    this.state = state;
    this.rev = state.revision;
    this.next = state.nextId;
    this.counts = { context: state.active.context, harness: state.active.harness };
  }

  /** Like {@link Skillbook.applyBatch}, on the draft: the draft changes, or nothing does. */
  applyBatch(raw: unknown, options: ApplyOptions = {}): DraftBatchResult {
    const parsed = parseBatch(raw, options.limits);
    if (!parsed.ok) return { ok: false, book: this, error: parsed.error };
    return this.run({ ops: parsed.ops, options });
  }

  /**
   * Applies one op exactly as `applyBatch({ operations: [op] }, options)` would — the same
   * parsing, limits, rules, ids, revision, applied op and errors: the one-op lane of the same
   * engine — but answers the op rather than lists, and reads its fields as properties (see
   * {@link OperationFields}). The write of one tool call.
   *
   * @example
   * const draft = Skillbook.empty().edit();
   * const r = draft.applyOperation({
   *   type: 'ADD', section: 'harness', skill_id: undefined, issue: 'flaky network', keywords: undefined,
   *   insight: 'retry twice', metadata: undefined, reason: undefined, insight_source: undefined,
   * });
   * r.ok && r.applied?.skill_id; // 'harness-00001'
   */
  applyOperation(op: OperationFields, options: ApplyOptions = {}): DraftOperationResult {
    const parsed = parseOnlyOperation(op, options.limits);
    if (!parsed.ok) return parsed;
    const run = applyOne(this, parsed.op, options, this.journal);
    if (!run.ok) return run;
    if (run.changes) this.take(run.changes);
    return { ok: true, applied: run.applied, skipped: run.skipped };
  }

  /** Like {@link Skillbook.replay}, on the draft. */
  replay(ops: readonly AppliedOp[]): DraftBatchResult {
    return this.run({ replay: ops });
  }

  /** Every write of the draft: applied by the engine into the draft's journal, then taken. */
  private run(write: Write): DraftBatchResult {
    const run: RunResult = applyOps(this, write, this.journal);
    if (!run.ok) return { ok: false, book: this, error: run.error };
    if (run.changes) this.take(run.changes);
    return { ok: true, book: this, applied: run.applied, skipped: run.skipped };
  }

  /** Takes what a run changed: its revision, counters and collections. */
  private take(changes: Changes): void {
    // a run's collections are handed over (see `Changes`): the first change's become the
    // draft's journal, which later runs write into in place (see `applyOps`)
    this.journal ??= { entries: changes.entries, added: changes.added, addedSections: changes.addedSections };
    this.rev = changes.revision;
    this.next = changes.nextId;
    this.counts.context = changes.active.context;
    this.counts.harness = changes.active.harness;
  }

  /**
   * The book of everything applied so far, built once (O(k) for k changed skills); the same
   * book as the batches applied one by one with `Skillbook.applyBatch` / `replay`. The draft
   * stays open: later batches continue from the returned book.
   */
  finish(): Skillbook {
    if (this.journal === null && this.next === this.state.nextId) return this.base;
    const written = this.journal ?? { entries: new Map(), added: [], addedSections: [] };
    this.state = commitChanges(this.state, { revision: this.rev, nextId: this.next, active: this.counts, ...written });
    this.base = this.wrap(this.state);
    this.journal = null;
    return this.base;
  }

  /** Like {@link Skillbook.reserveIds}, on the draft: `next_id` raised to at least `nextId`, the revision unchanged. */
  reserveIds(nextId: number): void {
    if (!Number.isSafeInteger(nextId)) die('RESERVE_IDS_INVALID', nextId);
    if (nextId > this.next) this.next = nextId;
  }

  /** The lists a commit based on `baseRevision` would conflict on (see {@link Skillbook.conflicts}). */
  conflicts(ops: readonly AppliedOp[], baseRevision: number): Conflict[] {
    return findConflicts(this, ops, baseRevision);
  }

  /** The draft's revision: the book's, +1 for every batch or replay that changed something. */
  get revision(): number {
    return this.rev;
  }

  /** ACE's `next_id`, as the draft has it now. */
  get nextId(): number {
    return this.next;
  }

  /** Active skill counts by section. @internal */
  get active(): ActiveCounts {
    return this.counts;
  }

  /** The number of skills, inactive ones included. */
  get size(): number {
    return this.state.skills.size + (this.journal?.added.length ?? 0);
  }

  /** @internal The entry (skill and revisions) for `id`, as the draft has it now. */
  entry(id: string): SkillEntry | undefined {
    return this.journal?.entries.get(id) ?? shardedGet(this.state.skills, id);
  }

  /** @internal */
  tombstone(id: string): number | undefined {
    return shardedGet(this.state.tombstones, id);
  }

  /**
   * @internal What changed after `base`: the book's log, plus every id the draft wrote (its
   * journal, which does not know at which of its revisions each changed: a superset is enough).
   */
  changedAfter(base: number, budget: number): ChangedAfter | null {
    return changedAfter(this.state.changes, base, budget, this.state.nextId, this.journal?.entries ?? null);
  }

  /** The skill with this id (active or not). */
  get(id: string): Skill | undefined {
    return this.entry(id)?.skill;
  }

  /** Whether a skill with this id exists (active or not). */
  has(id: string): boolean {
    return this.entry(id) !== undefined;
  }

  /** The revisions at which the skill's content, active flag and counters last changed. */
  revisionsOf(id: string): SkillRevisions | undefined {
    const entry = this.entry(id);
    return entry && revisionsOfEntry(entry);
  }

  /** Every skill, inactive ones included, in document (insertion) order. */
  *skills(): IterableIterator<Skill> {
    for (const id of listValues(this.state.order)) {
      const entry = this.entry(id);
      if (entry) yield entry.skill;
    }
    for (const id of this.journal?.added ?? []) {
      const entry = this.journal?.entries.get(id);
      if (entry) yield entry.skill;
    }
  }
}
