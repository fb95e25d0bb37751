/**
 * Applies parsed operations with ACE's semantics (`add_skill`, `update_skill`, `tag_skill`,
 * `remove_skill`) — but without touching the book: every change lands in a small overlay,
 * and the caller commits the overlay in one immer `produce` only if every op succeeded. That
 * makes a batch all-or-nothing and each UPDATE atomic, and costs O(k) for k operations.
 */
import { formatSkillId, idSuffix } from './createIdAllocator.ts';
import { formatAceTimestamp, systemClock } from './formatAceTimestamp.ts';
import { appendUniqueSources } from './insightSource.ts';
import type { ActiveCounts, BookReader, Changes, SkillEntry } from './internal/BookState.ts';
import { freezeSkill, makeSkill } from './internal/makeSkill.ts';
import { PyError } from './internal/python.ts';
import { coerceSectionAndKeywords, isSection, normalizeKeywords, normalizeRequiredText } from './normalize.ts';
import type { ParsedOperation } from './parseOperation.ts';
import { errorInfo } from './SkillbookError.ts';
import type { AppliedOp, ApplyOptions, Clock, IdAllocator, InsightSource, Section, Skill, SkillId, SkillbookErrorInfo, SkippedOp } from './types.ts';

/** How to run a list of operations. */
export interface RunOptions {
  /** The revision the changed book will have. */
  readonly revision: number;
  /**
   * Where an op's ACE timestamp comes from (asked only when the op applies): a clock, or the
   * `at` of each replayed op — with the replayed ops themselves, so that an op that applies
   * exactly as it says is reported as that same (frozen) op rather than a copy.
   */
  readonly time: { readonly clock: Clock } | { readonly at: readonly string[]; readonly inputs: readonly unknown[] };
  /** `'own'`: the book's `next_id`; an allocator: shared ids; `null`: replay (every ADD names its id). */
  readonly allocate: 'own' | IdAllocator | null;
}

/** How `applyBatch` runs a batch that would make revision `revision`. */
export function batchOptions(revision: number, options: ApplyOptions): RunOptions {
  return { revision, time: { clock: options.clock ?? systemClock }, allocate: options.allocateId ?? 'own' };
}

/** How `replay` runs applied ops (exact ids, their own `at`) that would make revision `revision`. */
export function replayOptions(revision: number, at: readonly string[], inputs: readonly unknown[]): RunOptions {
  return { revision, time: { at, inputs }, allocate: null };
}

/** The outcome: what to commit (`null` when nothing applied), or why the whole list is refused. */
export type RunResult =
  | { readonly ok: true; readonly changes: Changes | null; readonly applied: AppliedOp[]; readonly skipped: SkippedOp[] }
  | { readonly ok: false; readonly error: SkillbookErrorInfo };

type Outcome = { readonly applied: AppliedOp } | { readonly skipped: string } | { readonly error: SkillbookErrorInfo };

/** Runs `ops` against `base` in order; stops at the first failing op. */
export function runOperations(base: BookReader, ops: readonly ParsedOperation[], options: RunOptions): RunResult {
  const scope = new Scope(base, options);
  const applied: AppliedOp[] = [];
  const skipped: SkippedOp[] = [];
  for (const op of ops) {
    const outcome = scope.run(op);
    if ('error' in outcome) return { ok: false, error: outcome.error };
    if ('skipped' in outcome) {
      skipped.push(Object.freeze({ opIndex: op.opIndex, type: op.type, skillId: op.skillId, reason: outcome.skipped }));
    } else applied.push(outcome.applied);
  }
  return { ok: true, changes: applied.length === 0 ? null : scope.changes(), applied, skipped };
}

class Scope {
  private readonly entries = new Map<string, SkillEntry>();
  private readonly added: string[] = [];
  /** Ids added in this run by an ADD that named them (made on the first such ADD). */
  private named: Set<string> | null = null;
  /** The book's own id counter (`next_id`), as `createIdAllocator` counts. */
  private counter: number;
  private readonly active: Record<Section, number>;

  constructor(
    private readonly base: BookReader,
    private readonly options: RunOptions,
  ) {
    // as createIdAllocator would (a counter past 2^53 cannot count on)
    if (!Number.isSafeInteger(base.nextId)) throw new RangeError(`createIdAllocator: next must be a safe integer, got ${base.nextId}`);
    this.counter = base.nextId;
    this.active = { context: base.active.context, harness: base.active.harness };
  }

  changes(): Changes {
    const active: ActiveCounts = { ...this.active };
    return { revision: this.options.revision, nextId: this.counter, active, entries: this.entries, added: this.added };
  }

  run(op: ParsedOperation): Outcome {
    try {
      const replayed = this.replayedEffect(op);
      if (replayed) return replayed;
      if (op.type === 'ADD') return this.add(op);
      if (op.skillId === null) return { skipped: 'the operation has no skill_id' };
      const entry = this.entries.get(op.skillId) ?? this.base.entry(op.skillId);
      if (!entry) return { skipped: `no skill with id ${op.skillId}` };
      if (op.type === 'UPDATE') return this.update(op, entry);
      return op.type === 'TAG' ? this.tag(op, entry) : this.remove(op, entry);
    } catch (e) {
      if (e instanceof PyError) return { error: errorInfo('invalid_operation', e.message, { opIndex: op.opIndex }) };
      throw e;
    }
  }

  /**
   * A replayed op this package made, applied by reusing what it did the first time: applying
   * an op is a function of the skill it finds and the op (its `at` included), and skills are
   * immutable, so where the op finds the very skill object it found then (or, for an ADD, no
   * skill at all) the outcome is the skill it made then, and the same revisions move. A merge
   * replays every op of a commit at each level up to the store: this makes each of those an
   * entry and a trie insert, and every level shares one skill object. Anything else (another
   * skill there, a duplicate id) takes the full path, which decides and reports it.
   */
  private replayedEffect(op: ParsedOperation): Outcome | null {
    const time = this.options.time;
    if (!('inputs' in time)) return null;
    const input = time.inputs[op.opIndex];
    const effect = effectOf(input);
    const id = op.skillId;
    if (!effect || id === null) return null;
    if (!('after' in effect)) {
      // an ADD: the mark is the skill it made
      if (op.type !== 'ADD' || this.namedBefore(id)) return null;
      this.takeId(id, true);
      this.putAdded(id, effect);
      return { applied: input as AppliedOp };
    }
    const entry = this.entries.get(id) ?? this.base.entry(id);
    if (!entry || entry.skill !== effect.before) return null;
    this.putEffect(entry, effect);
    return { applied: input as AppliedOp };
  }

  /**
   * Keeps what an UPDATE, TAG or REMOVE did to `entry`: the skill it made, the revisions it
   * moved set to this run's, and the skill no longer counted active if it was retired.
   */
  private putEffect(entry: SkillEntry, effect: Effect): void {
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

  /** The ACE timestamp of an op that applies. */
  private timeOf(op: ParsedOperation): string {
    const time = this.options.time;
    return 'clock' in time ? formatAceTimestamp(time.clock.now()) : (time.at[op.opIndex] ?? '');
  }

  /** The applied op for `op`: the replayed input itself when it says exactly that, else a new one. */
  private applied(op: ParsedOperation, f: AppliedFields, effect: Effect | Skill): AppliedOp {
    const record = appliedRecord(op, f);
    const time = this.options.time;
    const input = 'inputs' in time ? time.inputs[op.opIndex] : undefined;
    return isProducedOp(input) && sameRecord(record, input) ? input : sealApplied(record, effect);
  }

  private exists(id: string): boolean {
    return this.entries.has(id) || this.base.entry(id) !== undefined;
  }

  /** Keeps a new entry, deep-frozen at once: a draft hands it out before any commit. */
  private put(id: string, entry: SkillEntry): void {
    this.entries.set(id, freezeEntry(entry));
  }

  /** Keeps a skill an ADD made: every revision at this run's, counted active in its section. */
  private putAdded(id: string, skill: Skill): void {
    const r = this.options.revision;
    this.put(id, { skill, contentRev: r, activeRev: r, countersRev: r });
    this.added.push(id);
    this.active[skill.section as Section] += 1;
  }

  private add(op: ParsedOperation): Outcome {
    // Cohort's rule is checked first for ids named before (in the book or by an earlier ADD), as
    // the reference does; an allocated id an explicit one collides with is caught at `idFor`.
    if (op.skillId && this.namedBefore(op.skillId)) {
      return this.duplicate(op, op.skillId);
    }
    const rawSection = normalizeRequiredText(op.section, 'section').toLowerCase();
    const [section, coerced] = coerceSectionAndKeywords(op.section, op.keywords);
    if (op.issue === null) throw new PyError('ValueError', 'issue is required and must be non-empty');
    let keywords = coerced.length > 0 ? coerced : defaultKeywords(rawSection);
    // a replayed op's frozen list that says the same is shared rather than copied
    if (Object.isFrozen(op.keywords) && sameList(keywords, op.keywords)) keywords = op.keywords as string[];
    let insight = op.insight;
    if (section === 'context' && insight === null) {
      if (isSection(rawSection)) throw new PyError('ValueError', 'context skills require a non-empty insight');
      insight = op.issue;
    }
    const id = this.idFor(op, section);
    if (typeof id !== 'string') return id;
    const at = this.timeOf(op);
    const occurrences = op.sources === null || op.sources.length === 0 ? NO_SOURCES : appendUniqueSources(NO_SOURCES, op.sources);
    const skill = makeSkill({ id, section, keywords, issue: op.issue, insight, occurrences, active: true, at, created: at });
    this.putAdded(id, skill);
    return { applied: this.applied(op, { section, skill_id: id, issue: op.issue, keywords, insight, sources: occurrences, at }, skill) };
  }

  private idFor(op: ParsedOperation, section: Section): string | { readonly error: SkillbookErrorInfo } {
    let id: string;
    if (op.skillId) id = op.skillId;
    else if (this.options.allocate === null) {
      return { error: errorInfo('invalid_operation', 'a replayed ADD must name its skill_id', { opIndex: op.opIndex }) };
    } else if (this.options.allocate === 'own') {
      this.counter += 1;
      id = formatSkillId(section, this.counter);
    } else id = this.options.allocate(section);
    if (this.exists(id)) return this.duplicate(op, id);
    this.takeId(id, Boolean(op.skillId));
    return id;
  }

  /** Keeps the id counter at or above `id`'s suffix; an id the op named is remembered as named. */
  private takeId(id: string, named: boolean): void {
    const n = idSuffix(id);
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
  private namedBefore(id: string): boolean {
    if (this.options.allocate === null) return this.exists(id);
    return this.named?.has(id) === true || this.base.entry(id) !== undefined;
  }

  private duplicate(op: ParsedOperation, id: string): { readonly error: SkillbookErrorInfo } {
    return { error: errorInfo('duplicate_skill_id', `skill id already exists: ${id}`, { opIndex: op.opIndex }) };
  }

  private update(op: ParsedOperation, entry: SkillEntry): Outcome {
    const old = entry.skill;
    const issue = op.issue ?? old.issue;
    const keywords = op.keywords.length > 0 ? op.keywords : old.keywords;
    const insight = op.insight ?? old.insight ?? null;
    if (old.section === 'context' && !insight) throw new PyError('ValueError', 'context skills require a non-empty insight');
    const occurrences = appendUniqueSources(old.occurrences, op.sources ?? []);
    const at = this.timeOf(op);
    const content = issue !== old.issue || insight !== (old.insight ?? null) || !sameList(keywords, old.keywords);
    const skill = makeSkill({ ...old, id: old.id, issue, keywords, insight, occurrences, at, created: old.created_at });
    const effect = { before: old, after: skill, content, active: false, counters: occurrences !== old.occurrences };
    this.putEffect(entry, effect);
    const given = {
      section: old.section,
      skill_id: old.id,
      issue: op.issue,
      keywords: op.keywords.length > 0 ? op.keywords : null,
      insight: op.insight,
      sources: op.sources ?? [],
      at,
    };
    return { applied: this.applied(op, given, effect) };
  }

  private tag(op: ParsedOperation, entry: SkillEntry): Outcome {
    const old = entry.skill;
    const occurrences = appendUniqueSources(old.occurrences, op.sources ?? []);
    const at = this.timeOf(op);
    // the kept fields by name, not a spread of `old`: a journal replays thousands of TAGs
    const skill = makeSkill({
      id: old.id, section: old.section, keywords: old.keywords, issue: old.issue, insight: old.insight ?? null, occurrences,
      active: old.active, used_count: old.used_count,
      helpful_count: old.helpful_count + (op.delta === 1 ? 1 : 0),
      harmful_count: old.harmful_count + (op.delta === -1 ? 1 : 0),
      neutral_count: old.neutral_count + (op.delta === 0 ? 1 : 0),
      at, created: old.created_at,
    });
    const effect = { before: old, after: skill, content: false, active: false, counters: true };
    this.putEffect(entry, effect);
    const applied = this.applied(op, { section: old.section, skill_id: old.id, sources: op.sources ?? [], at, tag: true }, effect);
    return { applied };
  }

  private remove(op: ParsedOperation, entry: SkillEntry): Outcome {
    const old = entry.skill;
    const occurrences = appendUniqueSources(old.occurrences, op.sources ?? []);
    const at = this.timeOf(op);
    const skill = makeSkill({ ...old, insight: old.insight ?? null, occurrences, active: false, at, created: old.created_at });
    const effect = { before: old, after: skill, content: false, active: old.active, counters: occurrences !== old.occurrences };
    this.putEffect(entry, effect);
    return { applied: this.applied(op, { section: old.section, skill_id: old.id, sources: op.sources ?? [], at }, effect) };
  }
}

/** The occurrences of a skill added without sources: one frozen list for all of them. */
const NO_SOURCES: readonly InsightSource[] = Object.freeze([]);

/** The keywords of a skill added without any (its section's name), one frozen list per name. */
const sectionKeywords = new Map<string, readonly string[]>();

function defaultKeywords(rawSection: string): string[] {
  let list = sectionKeywords.get(rawSection);
  if (!list) {
    list = Object.freeze(normalizeKeywords([rawSection]));
    // section names are few; a caller inventing thousands only stops being shared
    if (sectionKeywords.size < 256) sectionKeywords.set(rawSection, list);
  }
  return list as string[];
}

/** Deep-freezes a new entry; its insight sources are frozen already (`canonicalSource`). */
function freezeEntry(entry: SkillEntry): SkillEntry {
  freezeSkill(entry.skill);
  return Object.freeze(entry);
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

interface AppliedFields {
  readonly section: string;
  readonly skill_id: string;
  readonly issue?: string | null;
  readonly keywords?: readonly string[] | null;
  readonly insight?: string | null;
  readonly sources: readonly InsightSource[];
  readonly at: string;
  readonly tag?: boolean;
}

/** An {@link AppliedOp}'s fields in ACE's `to_json` key order, plus `at` (see {@link sealApplied}). */
function appliedRecord(op: ParsedOperation, f: AppliedFields): Record<string, unknown> {
  const { issue, keywords, insight } = f;
  // the usual ADD (issue, keywords and insight; no reason, no sources) as one literal: the same
  // keys in the same order as below, in one shape, with no properties added one by one
  if (issue && keywords && Object.isFrozen(keywords) && insight && !f.tag && op.reason === null && f.sources.length === 0) {
    return { type: op.type, section: f.section, issue, keywords, insight, skill_id: f.skill_id, at: f.at };
  }
  const out: Record<string, unknown> = { type: op.type, section: f.section };
  if (f.issue !== null && f.issue !== undefined) out['issue'] = f.issue;
  // a list the new skill holds is frozen already and may be shared; any other is copied
  if (f.keywords) out['keywords'] = Object.isFrozen(f.keywords) ? f.keywords : Object.freeze([...f.keywords]);
  if (f.insight !== null && f.insight !== undefined) out['insight'] = f.insight;
  out['skill_id'] = f.skill_id;
  if (f.tag) out['metadata'] = tagMetadata(op);
  if (op.reason !== null) out['reason'] = op.reason;
  if (f.sources.length > 0) out['insight_source'] = Object.isFrozen(f.sources) ? f.sources : Object.freeze([...f.sources]);
  out['at'] = f.at;
  return out;
}

/**
 * What applying an UPDATE, TAG or REMOVE did, kept with the op it made: the skill it found,
 * the skill it made, and which of the skill's revisions it moved (see `replayedEffect`). An
 * ADD keeps just the skill it made (found none, moved every revision): one object less per
 * new skill.
 */
interface Effect {
  readonly before: Skill;
  readonly after: Skill;
  readonly content: boolean;
  readonly active: boolean;
  readonly counters: boolean;
}

/**
 * Freezes a new applied op, with its {@link Effect} under a key no copy carries (a symbol,
 * not enumerable, not in JSON): a replay trusts the op as it is and may reuse the effect.
 */
function sealApplied(record: Record<string, unknown>, effect: Effect | Skill): AppliedOp {
  Object.defineProperty(record, PRODUCED, { value: effect });
  return Object.freeze(record) as unknown as AppliedOp;
}

function effectOf(op: unknown): Effect | Skill | undefined {
  return typeof op === 'object' && op !== null ? (op as { [PRODUCED]?: Effect | Skill })[PRODUCED] : undefined;
}

/** Whether a new applied op's fields are exactly those of `op` (same keys in the same order, same values). */
function sameRecord(record: Record<string, unknown>, op: AppliedOp): boolean {
  const theirs = op as unknown as Record<string, unknown>;
  const keys = Object.keys(theirs);
  let i = 0;
  for (const key in record) {
    if (keys[i++] !== key || !sameValue(record[key], theirs[key])) return false;
  }
  return i === keys.length;
}

/** Equality of applied-op values: text, lists of text or sources (by identity), and TAG metadata. */
function sameValue(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => x === b[i]);
  if (typeof a !== 'object' || a === null || typeof b !== 'object' || b === null || Array.isArray(b)) return false;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  return ka.length === kb.length && ka.every((k, i) => k === kb[i] && ra[k] === rb[k]);
}

/** Marks the applied ops made here: frozen, so they stay valid and a replay need not check them. */
const PRODUCED = Symbol('cohort.appliedOp');

/** Whether `op` is an applied op this package made (and so needs no validation). */
export function isProducedOp(op: unknown): op is AppliedOp {
  return effectOf(op) !== undefined;
}

/** The metadata of a TAG that says nothing but its direction, one frozen object per direction. */
const DELTA_ONLY: Readonly<Record<-1 | 0 | 1, Readonly<Record<string, number>>>> = Object.freeze({
  [-1]: Object.freeze({ delta: -1 }),
  [0]: Object.freeze({ delta: 0 }),
  [1]: Object.freeze({ delta: 1 }),
});

/** Whether TAG metadata holds nothing but (at most) `delta`. */
function deltaOnly(metadata: Readonly<Record<string, number>>): boolean {
  for (const key in metadata) if (key !== 'delta') return false;
  return true;
}

/** TAG metadata as applied: `delta` normalised to its sign, other integer entries kept. */
function tagMetadata(op: ParsedOperation): Readonly<Record<string, number>> {
  if (deltaOnly(op.metadata)) return DELTA_ONLY[op.delta];
  const entries = Object.entries(op.metadata)
    .filter(([key, value]) => key === 'delta' || Number.isSafeInteger(value))
    .map(([key, value]): [string, number] => [key, key === 'delta' ? op.delta : value]);
  if (!entries.some(([key]) => key === 'delta')) entries.unshift(['delta', op.delta]);
  return Object.freeze(Object.fromEntries(entries));
}
