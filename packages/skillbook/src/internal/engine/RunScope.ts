/**
 * One run's overlay over a book (see `applyOps.ts`): the entries the run wrote, the ids it
 * added, the id counter and the active counts — kept apart from the book until the caller
 * commits them, so that a run that fails changes nothing. A scope serves one run and is then
 * dropped: nothing of it is shared with another run, a run inside an allocator included.
 */
import { formatSkillId, idSuffix } from '../../createIdAllocator.ts';
import { die } from '../../errors.ts';
import { formatAceTimestamp } from '../../formatAceTimestamp.ts';
import type { ParsedOperation } from '../../parseOperation.ts';
import { errorInfo } from '../../SkillbookError.ts';
import type { AppliedOp, Clock, IdAllocator, Section, Skill, SkillbookErrorInfo } from '../../types.ts';
import type { BookReader, Changes, Journal, SkillEntry } from '../BookState.ts';
import { freezeSkill } from '../makeSkill.ts';
import { PyError } from '../python.ts';
import { appliedFor, sameApplied, sealApplied } from './appliedOp.ts';
import type { AppliedFields } from './appliedOp.ts';
import { addSkill, removeSkill, tagSkill, updateSkill } from './operationRules.ts';
import type { Outcome, RuleScope } from './operationRules.ts';
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

/** One run's overlay over the book: the entries it wrote, the ids it added, the id counter and the active counts. */
export class RunScope implements RuleScope {
  /** The entries the run wrote: its own overlay, or a draft's journal written in place. */
  private readonly entries: Map<string, SkillEntry>;
  /** Written in place: the base reads the journal itself. */
  private readonly inPlace: boolean;
  /**
   * In place: each id an UPDATE, TAG or REMOVE wrote and the entry it replaced, to undo a run
   * that fails (null until the first such write). An added id is undone by deleting it: it
   * was nowhere before the run.
   */
  private replaced: (string | SkillEntry | undefined)[] | null = null;
  /** The added ids and their sections: the journal's lists, or the run's own. */
  private readonly added: string[];
  private readonly addedSections: string[];
  /** How many ids the journal had added before the run. */
  private readonly addedBefore: number;
  /** Ids added in this run by an ADD that named them (made on the first such ADD). */
  private named: Set<string> | null = null;
  /** The book's own id counter (`next_id`), as `createIdAllocator` counts. */
  private counter: number;
  private readonly active: Record<Section, number>;

  constructor(
    private readonly base: BookReader,
    private readonly options: RunOptions,
    journal: Journal | null,
  ) {
    this.entries = journal?.entries ?? new Map();
    this.inPlace = journal !== null;
    this.added = journal?.added ?? [];
    this.addedSections = journal?.addedSections ?? [];
    this.addedBefore = this.added.length;
    // as createIdAllocator would (a counter past 2^53 cannot count on)
    if (!Number.isSafeInteger(base.nextId)) die('BOOK_UNSAFE_NEXT_ID', base.nextId);
    this.counter = base.nextId;
    this.active = { context: base.active.context, harness: base.active.harness };
  }

  /** What the run changed: its collections handed over (see `Changes`). */
  changes(): Changes {
    const { context, harness } = this.active;
    const { entries, added, addedSections } = this;
    return { revision: this.options.revision, nextId: this.counter, active: { context, harness }, entries, added, addedSections };
  }

  run(op: ParsedOperation): Outcome {
    try {
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
   * an UPDATE, TAG or REMOVE the very skill object it changed. Returns whether it did; `false` for
   * anything else (another skill there, a duplicate id, an op made elsewhere): the rules then
   * decide and report it. The one place a cached effect is applied.
   */
  reuse(input: AppliedOp): boolean {
    const effect = effectOf(input);
    if (effect === undefined) return false;
    const id = input.skill_id;
    // an ADD's effect is the skill it made, in the op's section: the op says what the skill would
    if (input.type === 'ADD') {
      if (this.namedBefore(id)) return false;
      this.takeId(id, true);
      this.keepAdded(id, effect as Skill, input.section as Section);
      return true;
    }
    const entry = this.entry(id);
    if (!entry || !isUpdateEffect(effect) || entry.skill !== effect.before) return false;
    this.keepEffect(entry, effect);
    return true;
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
    const added = this.added;
    for (let i = this.addedBefore; i < added.length; i++) this.entries.delete(added[i] as string);
    added.length = this.addedBefore;
    this.addedSections.length = this.addedBefore;
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
    this.entries.set(
      id,
      Object.freeze({
        skill: after,
        contentRev: effect.content ? r : entry.contentRev,
        activeRev: effect.active ? r : entry.activeRev,
        countersRev: effect.counters ? r : entry.countersRev,
      }),
    );
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
    this.added.push(id);
    this.addedSections.push(section);
    this.active[section] += 1;
  }

  idFor(op: ParsedOperation, section: Section): string | { readonly error: SkillbookErrorInfo } {
    let id: string;
    if (op.skillId) id = op.skillId;
    else if (this.options.allocate === null) {
      return { error: errorInfo('invalid_operation', 'a replayed ADD must name its skill_id', { opIndex: op.opIndex }) };
    } else if (this.options.allocate === 'own') {
      this.counter += 1;
      id = formatSkillId(section, this.counter);
    } else {
      const allocated = this.options.allocate(section);
      if (allocated === null)
        return { error: errorInfo('ids_unavailable', 'the id allocator has no id at hand for this ADD', { opIndex: op.opIndex }) };
      id = allocated;
    }
    if (this.exists(id)) return this.duplicate(op, id);
    this.takeId(id, Boolean(op.skillId));
    return id;
  }

  /** Keeps the id counter at or above `id`'s suffix (`n`); an id the op named is remembered as named. */
  private takeId(id: string, named: boolean): void {
    const n = idSuffix(id);
    if (n !== undefined && n > this.counter) this.counter = n;
    // a replay needs no record: each of its ADDs names its id (see `namedBefore`)
    if (named && this.options.allocate !== null) (this.named ??= new Set()).add(id);
  }

  /**
   * Whether `id` was named before: by the book, or by an earlier ADD of this run. In a replay
   * every ADD names its id, so the ids this run added are exactly the ones it named, and this
   * is whether the id exists (the run's entries hold them): a replay keeps no set of the ids it
   * added, which for a large commit would hold every one.
   */
  namedBefore(id: string): boolean {
    if (this.options.allocate === null) return this.exists(id);
    return this.named?.has(id) === true || this.base.entry(id) !== undefined;
  }

  duplicate(op: ParsedOperation, id: string): { readonly error: SkillbookErrorInfo } {
    return { error: errorInfo('duplicate_skill_id', `skill id already exists: ${id}`, { opIndex: op.opIndex }) };
  }
}
