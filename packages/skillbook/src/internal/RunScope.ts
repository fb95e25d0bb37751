/**
 * One run's overlay over a book (see `runOperations.ts`): the entries the run wrote, the ids
 * it added, the id counter and the active counts — kept apart from the book until the caller
 * commits them, so that a run that fails changes nothing.
 */
import { formatSkillId, idSuffix } from '../createIdAllocator.ts';
import { formatAceTimestamp } from '../formatAceTimestamp.ts';
import type { ParsedOperation } from '../parseOperation.ts';
import { errorInfo } from '../SkillbookError.ts';
import type { AppliedOp, Clock, IdAllocator, Section, Skill, SkillbookErrorInfo } from '../types.ts';
import { appliedFor, sameApplied, sealApplied } from './appliedOp.ts';
import type { AppliedFields } from './appliedOp.ts';
import type { ActiveCounts, BookReader, Changes, Journal, SkillEntry } from './BookState.ts';
import { freezeMap } from './frozenMap.ts';
import { freezeSkill } from './makeSkill.ts';
import { addSkill, removeSkill, tagSkill, updateSkill } from './operationRules.ts';
import type { Outcome, RuleScope } from './operationRules.ts';
import { PyError } from './python.ts';
import { effectOf, isProducedOp, isUpdateEffect } from './replayCache.ts';
import type { Effect } from './replayCache.ts';

/** How to run a list of operations. */
export interface RunOptions {
  /** The revision the changed book will have. */
  readonly revision: number;
  /**
   * Where an op's ACE timestamp comes from (asked only when the op applies): a clock, or the
   * replayed ops themselves — each op's `at`, or `at[i]` as parsed when given — so that an op
   * that applies exactly as it says is reported as that same (frozen) op rather than a copy.
   */
  readonly time: { readonly clock: Clock } | { readonly at: readonly string[] | null; readonly inputs: readonly AppliedOp[] };
  /** `'own'`: the book's `next_id`; an allocator: shared ids; `null`: replay (every ADD names its id). */
  readonly allocate: 'own' | IdAllocator | null;
}

/** {@link Changes} that a run writes into (see `RunScope.changes`). */
export interface OpenChanges {
  revision: number;
  nextId: number;
  readonly active: Record<Section, number>;
  entries: Map<string, SkillEntry>;
  added: string[];
  addedSections: string[];
}

/** What a released scope reads, and what the changes a one-op run hands over hold between runs: nothing. */
export const NO_ENTRIES = freezeMap(new Map()) as Map<string, SkillEntry>;
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
  /**
   * In place: each id an UPDATE, TAG or REMOVE wrote and the entry it replaced, to undo a run
   * that fails (null until the first such write). An added id is undone by deleting it: it
   * was nowhere before the run.
   */
  private replaced: (string | SkillEntry | undefined)[] | null = null;
  /**
   * The added ids and their sections: the journal's lists, or the run's own — null until the
   * first ADD, a list of one then, rather than 17 slots reserved by a first push.
   */
  private added: string[] | null = null;
  private addedSections: string[] | null = null;
  /** How many ids the journal had added before the run. */
  private addedBefore = 0;
  /** Ids added in this run by an ADD that named them (made on the first such ADD). */
  private named: Set<string> | null = null;
  /** The book's own id counter (`next_id`), as `createIdAllocator` counts. */
  private counter = 0;
  private readonly active: Record<Section, number> = { context: 0, harness: 0 };

  constructor(base: BookReader, options: RunOptions, journal: Journal | null) {
    this.restart(base, options, journal);
  }

  /** Starts a run as a new scope would (see `runOperation.ts`, which reuses one). */
  restart(base: BookReader, options: RunOptions, journal: Journal | null): void {
    this.base = base;
    this.options = options;
    this.entries = journal?.entries ?? new Map();
    this.inPlace = journal !== null;
    this.replaced = null;
    this.added = journal?.added ?? null;
    this.addedSections = journal?.addedSections ?? null;
    this.addedBefore = journal?.added.length ?? 0;
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
    this.addedSections = null;
    this.named = null;
  }

  /** What the run changed; into `into` when given (its counts copied into `into.active`: a one-op run reuses one). */
  changes(into?: OpenChanges): Changes {
    const { revision } = this.options;
    if (!into) {
      const active: ActiveCounts = { context: this.active.context, harness: this.active.harness };
      return { revision, nextId: this.counter, active, entries: this.entries, added: this.added ?? [], addedSections: this.addedSections ?? [] };
    }
    into.revision = revision;
    into.nextId = this.counter;
    into.active.context = this.active.context;
    into.active.harness = this.active.harness;
    into.entries = this.entries;
    into.added = this.added ?? [];
    into.addedSections = this.addedSections ?? [];
    return into;
  }

  run(op: ParsedOperation): Outcome {
    try {
      const time = this.options.time;
      const reused = 'inputs' in time ? this.reuse(time.inputs[op.opIndex]) : null;
      if (reused) return { applied: reused };
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
   * Applies a replayed op this package made by reusing what it did the first time (see
   * `replayCache.ts`), where it finds what it found then: for an ADD no skill with its id, for
   * an UPDATE, TAG or REMOVE the very skill object it changed. Returns the op, or `null` for
   * anything else (another skill there, a duplicate id, an op made elsewhere): the rules then
   * decide and report it. The one place a cached effect is applied.
   */
  reuse(input: AppliedOp | undefined): AppliedOp | null {
    const effect = effectOf(input);
    if (input === undefined || effect === undefined) return null;
    const id = input.skill_id;
    // decided by the op's type, which a produced op's effect follows (an ADD's is the skill it
    // made, frozen then, in the op's section): the skill itself is not read, and in a large
    // commit each read of one is a cache miss (W(10,000 × 10))
    if (input.type === 'ADD') {
      if (this.namedBefore(id)) return null;
      this.takeId(id, true);
      this.keepAdded(id, effect as Skill, input.section as Section);
      return input;
    }
    const entry = this.entry(id);
    if (!entry || !isUpdateEffect(effect) || entry.skill !== effect.before) return null;
    this.keepEffect(entry, effect);
    return input;
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
    const added = this.added ?? [];
    for (let i = this.addedBefore; i < added.length; i++) this.entries.delete(added[i] as string);
    added.length = this.addedBefore;
    if (this.addedSections) this.addedSections.length = this.addedBefore;
    this.replaced = null;
  }

  putEffect(entry: SkillEntry, effect: Effect): void {
    freezeSkill(effect.after);
    this.keepEffect(entry, effect);
  }

  /** Keeps what an UPDATE, TAG or REMOVE did (its skill frozen already). */
  private keepEffect(entry: SkillEntry, effect: Effect): void {
    const r = this.options.revision;
    const { before, after } = effect;
    const id = after.id;
    if (this.inPlace) this.logReplaced(id);
    this.entries.set(id, Object.freeze({
      skill: after,
      contentRev: effect.content ? r : entry.contentRev,
      activeRev: effect.active ? r : entry.activeRev,
      countersRev: effect.counters ? r : entry.countersRev,
    }));
    if (before.active && !after.active) this.active[before.section as Section] -= 1;
  }

  private logReplaced(id: string): void {
    const before = this.entries.get(id);
    if (this.replaced) this.replaced.push(id, before);
    else this.replaced = [id, before];
  }

  timeOf(op: ParsedOperation): string {
    const time = this.options.time;
    if ('clock' in time) return formatAceTimestamp(time.clock.now());
    return (time.at ? time.at[op.opIndex] : time.inputs[op.opIndex]?.at) ?? '';
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

  putAdded(id: string, skill: Skill): void {
    this.keepAdded(id, freezeSkill(skill), skill.section as Section);
  }

  /** Keeps a new (frozen) skill under an id that was nowhere: a draft hands its entry out before any commit. */
  private keepAdded(id: string, skill: Skill, section: Section): void {
    const r = this.options.revision;
    this.entries.set(id, Object.freeze({ skill, contentRev: r, activeRev: r, countersRev: r }));
    if (this.added && this.addedSections) {
      this.added.push(id);
      this.addedSections.push(section);
    } else {
      this.added = [id];
      this.addedSections = [section];
    }
    this.active[section] += 1;
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
