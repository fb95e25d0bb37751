/**
 * Runs parsed operations with ACE's semantics (the rules in `internal/operationRules.ts`) —
 * but without touching the book: every change lands in a small overlay, and the caller
 * commits the overlay in one step only if every op succeeded. That makes a batch
 * all-or-nothing and each UPDATE atomic, and costs O(k) for k operations. A replayed op this
 * package made reuses what it did the first time (`internal/replayCache.ts`).
 */
import { formatSkillId, idSuffix } from './createIdAllocator.ts';
import { formatAceTimestamp, systemClock } from './formatAceTimestamp.ts';
import { appliedFor, sameApplied, sealApplied } from './internal/appliedOp.ts';
import type { AppliedFields } from './internal/appliedOp.ts';
import type { BookReader, Changes, SkillEntry } from './internal/BookState.ts';
import { freezeMap } from './internal/frozenMap.ts';
import { freezeSkill } from './internal/makeSkill.ts';
import { addSkill, removeSkill, tagSkill, updateSkill } from './internal/operationRules.ts';
import type { Outcome, RuleScope } from './internal/operationRules.ts';
import { PyError } from './internal/python.ts';
import { effectOf, isProducedOp, isUpdateEffect } from './internal/replayCache.ts';
import type { Effect } from './internal/replayCache.ts';
import type { ParsedOperation } from './parseOperation.ts';
import { errorInfo } from './SkillbookError.ts';
import type { AppliedOp, ApplyOptions, Clock, IdAllocator, Section, Skill, SkillbookErrorInfo, SkippedOp } from './types.ts';

/** How to run a list of operations. */
export interface RunOptions {
  /** The revision the changed book will have. */
  readonly revision: number;
  /**
   * Where an op's ACE timestamp comes from (asked only when the op applies): a clock, or the
   * `at` of each replayed op — with the replayed ops themselves, so that an op that applies
   * exactly as it says is reported as that same (frozen) op rather than a copy.
   */
  readonly time: { readonly clock: Clock } | { readonly at: readonly string[]; readonly inputs: readonly AppliedOp[] };
  /** `'own'`: the book's `next_id`; an allocator: shared ids; `null`: replay (every ADD names its id). */
  readonly allocate: 'own' | IdAllocator | null;
}

/** How `applyBatch` runs a batch that would make revision `revision`. */
export function batchOptions(revision: number, options: ApplyOptions): RunOptions {
  return { revision, time: { clock: options.clock ?? systemClock }, allocate: options.allocateId ?? 'own' };
}

/** How `replay` runs applied ops (exact ids, their own `at`) that would make revision `revision`. */
export function replayOptions(revision: number, at: readonly string[], inputs: readonly AppliedOp[]): RunOptions {
  return { revision, time: { at, inputs }, allocate: null };
}

/** The outcome: what to commit (`null` when nothing applied), or why the whole list is refused. */
export type RunResult =
  | { readonly ok: true; readonly changes: Changes | null; readonly applied: AppliedOp[]; readonly skipped: SkippedOp[] }
  | { readonly ok: false; readonly error: SkillbookErrorInfo };

/**
 * Runs `ops` against `base` in order; stops at the first failing op. `journal`, when given, is
 * the map of entries a `SkillbookDraft` over `base` holds: the run then writes into it in place,
 * and undoes its writes if it fails, instead of writing an overlay the draft copies in
 * afterwards — a map and a copy per batch, and a batch is one tool call or one merge (bench
 * rows 2 and 3).
 */
export function runOperations(base: BookReader, ops: readonly ParsedOperation[], options: RunOptions, journal: Map<string, SkillEntry> | null = null): RunResult {
  const scope = new RunScope(base, options, journal);
  try {
    return runAll(scope, ops);
  } catch (e) {
    scope.undo();
    throw e;
  }
}

/** How a skipped op is reported. */
export function skippedOp(op: ParsedOperation, outcome: Extract<Outcome, { readonly skipped: string }>): SkippedOp {
  return Object.freeze({ opIndex: op.opIndex, type: op.type, skillId: op.skillId, code: outcome.code, reason: outcome.skipped });
}

function runAll(scope: RunScope, ops: readonly ParsedOperation[]): RunResult {
  // sized to the ops, not grown by push: the first push into `[]` reserves 17 slots, and most
  // batches are one tool call's single op (bench row 2)
  const applied: AppliedOp[] = new Array<AppliedOp>(ops.length);
  let count = 0;
  const skipped: SkippedOp[] = [];
  for (const op of ops) {
    const outcome = scope.run(op);
    if ('error' in outcome) {
      scope.undo();
      return { ok: false, error: outcome.error };
    }
    if ('skipped' in outcome) {
      skipped.push(skippedOp(op, outcome));
    } else applied[count++] = outcome.applied;
  }
  applied.length = count;
  return { ok: true, changes: count === 0 ? null : scope.changes(), applied, skipped };
}

/** {@link Changes} that a run writes into (see `RunScope.changes`). */
export interface OpenChanges {
  revision: number;
  nextId: number;
  readonly active: Record<Section, number>;
  entries: Map<string, SkillEntry>;
  added: string[];
}

/** What a released scope reads: nothing. */
const NO_ENTRIES = freezeMap(new Map()) as Map<string, SkillEntry>;
const NO_BOOK: BookReader = {
  revision: 0, nextId: 0, active: { context: 0, harness: 0 },
  entry: () => undefined, tombstone: () => undefined, changedAfter: () => null,
};
const NO_OPTIONS: RunOptions = { revision: 0, time: { at: [], inputs: [] }, allocate: null };

/** One run's overlay over the book: the entries it wrote, the ids it added, the id counter and the active counts. */
export class RunScope implements RuleScope {
  private base!: BookReader;
  private options!: RunOptions;
  /** The entries the run wrote: its own overlay, or a draft's journal written in place. */
  private entries!: Map<string, SkillEntry>;
  /** Written in place: the base reads the journal itself. */
  private inPlace = false;
  /** In place: each written id and the entry it replaced, to undo a run that fails (null until the first write). */
  private replaced: (string | SkillEntry | undefined)[] | null = null;
  /** Null until the first ADD: a list of one then, rather than 17 slots reserved by a first push. */
  private added: string[] | null = null;
  /** Ids added in this run by an ADD that named them (made on the first such ADD). */
  private named: Set<string> | null = null;
  /** The book's own id counter (`next_id`), as `createIdAllocator` counts. */
  private counter = 0;
  private readonly active: Record<Section, number> = { context: 0, harness: 0 };

  constructor(base: BookReader, options: RunOptions, journal: Map<string, SkillEntry> | null) {
    this.restart(base, options, journal);
  }

  /** Starts a run as a new scope would (see `runOperation`, which reuses one). */
  restart(base: BookReader, options: RunOptions, journal: Map<string, SkillEntry> | null): void {
    this.base = base;
    this.options = options;
    this.entries = journal ?? new Map();
    this.inPlace = journal !== null;
    this.replaced = null;
    this.added = null;
    this.named = null;
    // as createIdAllocator would (a counter past 2^53 cannot count on)
    if (!Number.isSafeInteger(base.nextId)) throw new RangeError(`createIdAllocator: next must be a safe integer, got ${base.nextId}`);
    this.counter = base.nextId;
    this.active.context = base.active.context;
    this.active.harness = base.active.harness;
  }

  /** Lets go of the run's book and collections, so that a scope kept for reuse keeps nothing alive. */
  release(): void {
    this.base = NO_BOOK;
    this.options = NO_OPTIONS;
    this.entries = NO_ENTRIES;
    this.replaced = null;
    this.added = null;
    this.named = null;
  }

  /** What the run changed; into `into` when given (its counts copied into `into.active`: a one-op run reuses one). */
  changes(into?: OpenChanges): Changes {
    if (!into) return { revision: this.options.revision, nextId: this.counter, active: { ...this.active }, entries: this.entries, added: this.added ?? [] };
    into.revision = this.options.revision;
    into.nextId = this.counter;
    into.active.context = this.active.context;
    into.active.harness = this.active.harness;
    into.entries = this.entries;
    into.added = this.added ?? [];
    return into;
  }

  run(op: ParsedOperation): Outcome {
    try {
      const replayed = this.replayedEffect(op);
      if (replayed) return replayed;
      if (op.type === 'ADD') return addSkill(this, op);
      if (op.skillId === null) return { skipped: 'the operation has no skill_id', code: 'no_skill' };
      const entry = this.entry(op.skillId);
      if (!entry) return { skipped: `no skill with id ${op.skillId}`, code: 'no_skill' };
      if (op.type === 'UPDATE') return updateSkill(this, op, entry);
      return op.type === 'TAG' ? tagSkill(this, op, entry) : removeSkill(this, op, entry);
    } catch (e) {
      if (e instanceof PyError) return { error: errorInfo('invalid_operation', e.message, { opIndex: op.opIndex }) };
      throw e;
    }
  }

  /**
   * A replayed op this package made, applied by reusing what it did the first time (see
   * `internal/replayCache.ts`), where it finds what it found then. Anything else (another
   * skill there, a duplicate id) takes the full path, which decides and reports it.
   */
  private replayedEffect(op: ParsedOperation): Outcome | null {
    const time = this.options.time;
    if (!('inputs' in time)) return null;
    const input = time.inputs[op.opIndex];
    const effect = effectOf(input);
    const id = op.skillId;
    if (!input || !effect || id === null) return null;
    if (!isUpdateEffect(effect)) {
      // an ADD: what it did is the skill it made
      if (op.type !== 'ADD' || this.namedBefore(id)) return null;
      this.takeId(id, true);
      this.putAdded(id, effect);
      return { applied: input };
    }
    const entry = this.entry(id);
    if (!entry || entry.skill !== effect.before) return null;
    this.putEffect(entry, effect);
    return { applied: input };
  }

  private entry(id: string): SkillEntry | undefined {
    return this.inPlace ? this.base.entry(id) : (this.entries.get(id) ?? this.base.entry(id));
  }

  /** Takes back what the run wrote in place (a failed run changes nothing). */
  undo(): void {
    if (!this.inPlace) return;
    const replaced = this.replaced;
    if (replaced) {
      for (let i = replaced.length - 2; i >= 0; i -= 2) {
        const id = replaced[i] as string;
        const before = replaced[i + 1] as SkillEntry | undefined;
        if (before === undefined) this.entries.delete(id);
        else this.entries.set(id, before);
      }
    }
    // an added id was nowhere before the run (the rules and the replay check that first): it goes
    for (const id of this.added ?? []) this.entries.delete(id);
    this.replaced = null;
    this.added = null;
  }

  putEffect(entry: SkillEntry, effect: Effect): void {
    const r = this.options.revision;
    const { before, after } = effect;
    this.put(after.id, {
      skill: after,
      contentRev: effect.content ? r : entry.contentRev,
      activeRev: effect.active ? r : entry.activeRev,
      countersRev: effect.counters ? r : entry.countersRev,
    });
    if (before.active && !after.active) this.active[before.section as Section] -= 1;
  }

  timeOf(op: ParsedOperation): string {
    const time = this.options.time;
    return 'clock' in time ? formatAceTimestamp(time.clock.now()) : (time.at[op.opIndex] ?? '');
  }

  applied(op: ParsedOperation, fields: AppliedFields, effect: Effect | Skill): AppliedOp {
    const made = appliedFor(op, fields);
    const time = this.options.time;
    const input = 'inputs' in time ? time.inputs[op.opIndex] : undefined;
    return isProducedOp(input) && sameApplied(made, input) ? input : sealApplied(made, effect);
  }

  private exists(id: string): boolean {
    return this.entry(id) !== undefined;
  }

  /** Keeps a new entry, deep-frozen at once: a draft hands it out before any commit. `added`: an ADD's (undone by `added`, not logged). */
  private put(id: string, entry: SkillEntry, added = false): void {
    freezeSkill(entry.skill);
    if (this.inPlace && !added) {
      const before = this.entries.get(id);
      if (this.replaced) this.replaced.push(id, before);
      else this.replaced = [id, before];
    }
    this.entries.set(id, Object.freeze(entry));
  }

  putAdded(id: string, skill: Skill): void {
    const r = this.options.revision;
    this.put(id, { skill, contentRev: r, activeRev: r, countersRev: r }, true);
    if (this.added) this.added.push(id);
    else this.added = [id];
    this.active[skill.section as Section] += 1;
  }

  idFor(op: ParsedOperation, section: Section): string | { readonly error: SkillbookErrorInfo } {
    let id: string;
    const counted = this.counter;
    if (op.skillId) id = op.skillId;
    else if (this.options.allocate === null) {
      return { error: errorInfo('invalid_operation', 'a replayed ADD must name its skill_id', { opIndex: op.opIndex }) };
    } else if (this.options.allocate === 'own') {
      this.counter += 1;
      id = formatSkillId(section, this.counter);
    } else id = this.options.allocate(section);
    const n = idSuffix(id);
    // numbered past the count, it is nowhere (a book keeps next_id at or above every id's number,
    // the run counts its own): no look-up, a cache miss per ADD in a large journal (toolmicro)
    if (!(n !== undefined && n > counted) && this.exists(id)) return this.duplicate(op, id);
    this.takeId(id, Boolean(op.skillId), n);
    return id;
  }

  /** Keeps the id counter at or above `id`'s suffix (`n`); an id the op named is remembered as named. */
  private takeId(id: string, named: boolean, n = idSuffix(id)): void {
    if (n !== undefined && n > this.counter) this.counter = n;
    // a replay needs no record: each of its ADDs names its id (see `namedBefore`)
    if (named && this.options.allocate !== null) (this.named ??= new Set()).add(id);
  }

  /**
   * Whether `id` was named before: by the book, or by an earlier ADD of this run. In a replay
   * every ADD names its id, so the ids this run added are exactly the ones it named, and this
   * is whether the id exists (the run's entries hold them) — without a set of 100,000 ids for
   * a commit of 100,000 ADDs.
   */
  namedBefore(id: string): boolean {
    if (this.options.allocate === null) return this.exists(id);
    return this.named?.has(id) === true || this.base.entry(id) !== undefined;
  }

  duplicate(op: ParsedOperation, id: string): { readonly error: SkillbookErrorInfo } {
    return { error: errorInfo('duplicate_skill_id', `skill id already exists: ${id}`, { opIndex: op.opIndex }) };
  }
}
