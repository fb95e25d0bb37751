import { writeAceDocument } from './aceJson.ts';
import { findConflicts } from './conflicts.ts';
import { systemClock } from './formatAceTimestamp.ts';
import { commitChanges, emptyMutableState, freezeState, revisionsOfEntry, stateReader } from './internal/BookState.ts';
import type { BookState } from './internal/BookState.ts';
import { listValues } from './internal/ChunkedList.ts';
import { shardedGet } from './internal/ShardedMap.ts';
import { adoptState, purgeState, reserveState } from './internal/wholeBookEdits.ts';
import type { AdoptedSkills } from './internal/wholeBookEdits.ts';
import { applyOps } from './internal/engine/applyOps.ts';
import type { RunResult } from './internal/engine/applyOps.ts';
import { parseBatch } from './parseBatch.ts';
import { readAceDocument } from './readAceDocument.ts';
import { computeStats, renderPrompt } from './renderPrompt.ts';
import { SkillbookDraft } from './SkillbookDraft.ts';
import { readSnapshot, writeSnapshot } from './snapshot.ts';
import { SkillbookError } from './SkillbookError.ts';
import type {
  AppliedOp,
  ApplyOptions,
  Clock,
  Conflict,
  Skill,
  SkillbookErrorInfo,
  SkillbookStats,
  SkillRevisions,
  SkippedOp,
} from './types.ts';

/** The outcome of {@link Skillbook.applyBatch} / {@link Skillbook.replay}: all ops, or none. */
export type BatchResult =
  | { readonly ok: true; readonly book: Skillbook; readonly applied: AppliedOp[]; readonly skipped: SkippedOp[] }
  | { readonly ok: false /** The unchanged input book. */; readonly book: Skillbook; readonly error: SkillbookErrorInfo };

/** The outcome of {@link Skillbook.parse}. */
export type ParseResult = { readonly ok: true; readonly book: Skillbook } | { readonly ok: false; readonly error: SkillbookErrorInfo };

/** Options for reading a document. */
export interface LoadOptions {
  /** The revision of the loaded book (and of every skill's parts). Default 0. */
  readonly revision?: number;
  /** Fills a missing `created_at` / `updated_at`, as ACE does. Default: the real clock. */
  readonly clock?: Clock;
}

/**
 * An immutable Skillbook (ACE document schema v2): skills in `context` and `harness`, changed
 * only by ADD / UPDATE / TAG / REMOVE batches that return a new book. Books are frozen and
 * share structure (copy-on-write of the few nodes a batch changes), so keeping many versions is
 * cheap and applying k ops costs O(k).
 *
 * @example
 * const r = Skillbook.empty().applyBatch({
 *   operations: [{ type: 'ADD', section: 'context', issue: 'Dates are ambiguous', insight: 'Use ISO 8601' }],
 * });
 * if (r.ok) console.log(r.book.get('context-00001')?.insight); // 'Use ISO 8601'
 */
export class Skillbook {
  private readonly state: BookState;

  private constructor(state: BookState) {
    this.state = state;
    Object.freeze(this);
  }

  /** An empty book (revision 0 unless given). */
  static empty(options: { readonly revision?: number } = {}): Skillbook {
    return new Skillbook(freezeState(emptyMutableState(options.revision ?? 0)));
  }

  /**
   * Reads an ACE schema-v2 document. Throws a {@link SkillbookError} (`invalid_json`,
   * `invalid_document` with the offending `path`, or `unsupported_schema_version`).
   */
  static fromJSON(text: string, options: LoadOptions = {}): Skillbook {
    const result = Skillbook.parse(text, options);
    if (!result.ok) throw new SkillbookError(result.error);
    return result.book;
  }

  /** Like {@link Skillbook.fromJSON}, but returns the refusal as a value. Never throws. */
  static parse(text: string, options: LoadOptions = {}): ParseResult {
    const read = readAceDocument(text, { revision: options.revision ?? 0, clock: options.clock ?? systemClock });
    return read.ok ? { ok: true, book: new Skillbook(read.state) } : read;
  }

  /**
   * Reads a snapshot that {@link Skillbook.toSnapshot} wrote: the same book as reading the
   * document it was written with (`Skillbook.parse(book.toJSON(), { revision })`), in a
   * fraction of the time. A snapshot is trusted to be normalised (only its shape is
   * checked), so read only snapshots tied to their document — a store keeps one beside the
   * document it wrote, with the document's digest. Refuses anything else as a value. Never throws.
   */
  static fromSnapshot(text: string, options: { readonly revision?: number } = {}): ParseResult {
    const read = readSnapshot(text, options.revision ?? 0);
    return read.ok ? { ok: true, book: new Skillbook(read.state) } : read;
  }

  /**
   * A compact encoding of this book for its own store (not an ACE document; see
   * {@link Skillbook.fromSnapshot}). O(n).
   */
  toSnapshot(): string {
    return writeSnapshot(this.state);
  }

  /** The document text, byte for byte what ACE's `dumps()` writes for this book. O(n). */
  toJSON(): string {
    return writeAceDocument(this.state);
  }

  /**
   * Applies a raw ACE `UpdateBatch` (`{ operations: [...] }`, or its JSON text), all or
   * nothing. Ops that changed the book are listed in `applied` (exact, replayable); UPDATE /
   * TAG / REMOVE of an unknown id in `skipped`. Returns this same book when nothing applied.
   * Never throws on bad input: a refusal names the failing `opIndex` and reason.
   */
  applyBatch(raw: unknown, options: ApplyOptions = {}): BatchResult {
    const parsed = parseBatch(raw, options.limits);
    if (!parsed.ok) return { ok: false, book: this, error: parsed.error };
    return this.finish(applyOps(stateReader(this.state), { ops: parsed.ops, options }));
  }

  /**
   * Applies already-applied ops exactly (explicit ids, `at` timestamps), all or nothing:
   * `old.replay(result.applied).book.toJSON() === result.book.toJSON()`. Used to merge a
   * child's work and to rebuild a book from its audit.
   */
  replay(ops: readonly AppliedOp[]): BatchResult {
    return this.finish(applyOps(stateReader(this.state), { replay: ops }));
  }

  /**
   * Opens a mutable draft of this book for a run of batches: each `applyBatch` / `replay` on
   * the draft costs what the same call on the book costs, less building a new book, which the
   * draft does once, in `finish()`. The book itself never changes. Use it where many small
   * batches follow one another and the intermediate books are not needed (a session's writes,
   * the merges into a supervisor, reading a journal).
   *
   * @example
   * const draft = Skillbook.empty().edit();
   * draft.applyBatch({ operations: [{ type: 'ADD', section: 'harness', issue: 'a' }] });
   * draft.applyBatch({ operations: [{ type: 'ADD', section: 'harness', issue: 'b' }] });
   * const book = draft.finish(); // revision 2, two skills: as two applyBatch calls would give
   */
  edit(): SkillbookDraft {
    return new SkillbookDraft(this, this.state, (state) => new Skillbook(state));
  }

  private finish(run: RunResult): BatchResult {
    if (!run.ok) return { ok: false, book: this, error: run.error };
    const book = run.changes ? new Skillbook(commitChanges(this.state, run.changes)) : this;
    return { ok: true, book, applied: run.applied, skipped: run.skipped };
  }

  /** The ops of a commit based on `baseRevision` that conflict with this book (the conflict table: docs/internals/conflicts.md). */
  conflicts(ops: readonly AppliedOp[], baseRevision: number): Conflict[] {
    return findConflicts(stateReader(this.state), ops, baseRevision);
  }

  /** The book's revision: +1 for every batch, replay or purge that changed it. */
  get revision(): number {
    return this.state.revision;
  }

  /** ACE's `next_id`: the counter of the last allocated id. */
  get nextId(): number {
    return this.state.nextId;
  }

  /** The number of skills, inactive ones included. */
  get size(): number {
    return this.state.skills.size;
  }

  /** The skill with this id (active or not). */
  get(id: string): Skill | undefined {
    return shardedGet(this.state.skills, id)?.skill;
  }

  /** Whether a skill with this id exists (active or not). */
  has(id: string): boolean {
    return shardedGet(this.state.skills, id) !== undefined;
  }

  /** Every skill, inactive ones included, in document (insertion) order. */
  *skills(): IterableIterator<Skill> {
    for (const id of listValues(this.state.order)) {
      const entry = shardedGet(this.state.skills, id);
      if (entry) yield entry.skill;
    }
  }

  /** The revisions at which the skill's content, active flag and counters last changed. */
  revisionsOf(id: string): SkillRevisions | undefined {
    const entry = shardedGet(this.state.skills, id);
    return entry && revisionsOfEntry(entry);
  }

  /** The revision at which a purged id disappeared, if it was purged. */
  tombstone(id: string): number | undefined {
    return shardedGet(this.state.tombstones, id);
  }

  /**
   * Hard-deletes skills (ACE `purge`): they leave the document and their section's list, and
   * leave a tombstone at the new revision. Unknown ids are ignored; returns this same book when
   * none was present. O(n): meant for a store adopting a document that lacks those skills.
   */
  purge(ids: readonly string[]): Skillbook {
    const state = purgeState(this.state, ids, this.state.revision + 1);
    return state ? new Skillbook(state) : this;
  }

  /**
   * Takes in what another writer left, in one revision (the next, or `options.revision`): each
   * given skill replaces the skill with its id as it is (or is added at the end of its
   * section), each purged id is hard-deleted, and `next_id` is raised to the writer's. A store
   * records a document another program wrote this way, so that its history replays. O(n).
   *
   * @example
   * const theirs = Skillbook.fromJSON(aceText);
   * const ours = book.adopt({ skills: [...theirs.skills()], purged: [], nextId: theirs.nextId });
   */
  adopt(change: AdoptedSkills, options: { readonly revision?: number } = {}): Skillbook {
    return new Skillbook(adoptState(this.state, change, options.revision ?? this.state.revision + 1));
  }

  /**
   * This book with `next_id` raised to at least `nextId`, at the same revision: ids up to it are
   * reserved (a store grants them to writers that allocate on their own), so an allocation from
   * this book — or ACE's from its document — starts past them. Returns this same book when its
   * `next_id` is there already.
   */
  reserveIds(nextId: number): Skillbook {
    const state = reserveState(this.state, nextId);
    return state === this.state ? this : new Skillbook(state);
  }

  /** The prompt text, exactly ACE's `as_prompt()`. */
  asPrompt(): string {
    return renderPrompt(this.state);
  }

  /** ACE's `stats()`. */
  stats(): SkillbookStats {
    return computeStats(this.state);
  }
}
