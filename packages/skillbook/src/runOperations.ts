/**
 * Applies parsed operations with ACE's semantics (`add_skill`, `update_skill`, `tag_skill`,
 * `remove_skill`) — but without touching the book: every change lands in a small overlay,
 * and the caller commits the overlay in one immer `produce` only if every op succeeded. That
 * makes a batch all-or-nothing and each UPDATE atomic, and costs O(k) for k operations.
 */
import { createIdAllocator } from './createIdAllocator.ts';
import { appendUniqueSources } from './insightSource.ts';
import type { ActiveCounts, BookState, Changes, SkillEntry } from './internal/BookState.ts';
import { PyError } from './internal/python.ts';
import { shardedGet } from './internal/ShardedMap.ts';
import { coerceSectionAndKeywords, isSection, normalizeKeywords, normalizeRequiredText } from './normalize.ts';
import type { ParsedOperation } from './parseOperation.ts';
import { errorInfo } from './SkillbookError.ts';
import type { AppliedOp, IdAllocator, InsightSource, Section, Skill, SkillId, SkillbookErrorInfo, SkippedOp } from './types.ts';

/** How to run a list of operations. */
export interface RunOptions {
  /** The revision the changed book will have. */
  readonly revision: number;
  /** The ACE timestamp for an op, asked only when the op applies. */
  readonly timeOf: (op: ParsedOperation) => string;
  /** `'own'`: the book's `next_id`; an allocator: shared ids; `null`: replay (every ADD names its id). */
  readonly allocate: 'own' | IdAllocator | null;
}

/** The outcome: what to commit (`null` when nothing applied), or why the whole list is refused. */
export type RunResult =
  | { readonly ok: true; readonly changes: Changes | null; readonly applied: AppliedOp[]; readonly skipped: SkippedOp[] }
  | { readonly ok: false; readonly error: SkillbookErrorInfo };

type Outcome = { readonly applied: AppliedOp } | { readonly skipped: string } | { readonly error: SkillbookErrorInfo };

/** Runs `ops` against `base` in order; stops at the first failing op. */
export function runOperations(base: BookState, ops: readonly ParsedOperation[], options: RunOptions): RunResult {
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
  private readonly added: [string, string][] = [];
  /** Ids added in this run by an ADD that named them. */
  private readonly named = new Set<string>();
  private readonly counter: ReturnType<typeof createIdAllocator>;
  private readonly active: Record<Section, number>;

  constructor(
    private readonly base: BookState,
    private readonly options: RunOptions,
  ) {
    this.counter = createIdAllocator(base.nextId);
    this.active = { ...base.active };
  }

  changes(): Changes {
    const active: ActiveCounts = { ...this.active };
    return { revision: this.options.revision, nextId: this.counter.next, active, entries: this.entries, added: this.added };
  }

  run(op: ParsedOperation): Outcome {
    try {
      if (op.type === 'ADD') return this.add(op);
      if (op.skillId === null) return { skipped: 'the operation has no skill_id' };
      const entry = this.entries.get(op.skillId) ?? shardedGet(this.base.skills, op.skillId);
      if (!entry) return { skipped: `no skill with id ${op.skillId}` };
      if (op.type === 'UPDATE') return this.update(op, entry);
      return op.type === 'TAG' ? this.tag(op, entry) : this.remove(op, entry);
    } catch (e) {
      if (e instanceof PyError) return { error: errorInfo('invalid_operation', e.message, { opIndex: op.opIndex }) };
      throw e;
    }
  }

  private exists(id: string): boolean {
    return this.entries.has(id) || shardedGet(this.base.skills, id) !== undefined;
  }

  private put(id: string, entry: SkillEntry): void {
    this.entries.set(id, entry);
  }

  private add(op: ParsedOperation): Outcome {
    // Cohort's rule is checked first for ids named before (in the book or by an earlier ADD), as
    // the reference does; an allocated id an explicit one collides with is caught at `idFor`.
    if (op.skillId && (this.named.has(op.skillId) || shardedGet(this.base.skills, op.skillId))) {
      return this.duplicate(op, op.skillId);
    }
    const rawSection = normalizeRequiredText(op.section, 'section').toLowerCase();
    const [section, coerced] = coerceSectionAndKeywords(op.section, op.keywords);
    if (op.issue === null) throw new PyError('ValueError', 'issue is required and must be non-empty');
    const keywords = coerced.length > 0 ? coerced : normalizeKeywords([rawSection]);
    let insight = op.insight;
    if (section === 'context' && insight === null) {
      if (isSection(rawSection)) throw new PyError('ValueError', 'context skills require a non-empty insight');
      insight = op.issue;
    }
    const id = this.idFor(op, section);
    if (typeof id !== 'string') return id;
    const at = this.options.timeOf(op);
    const r = this.options.revision;
    const occurrences = appendUniqueSources([], op.sources ?? []);
    const skill = makeSkill({ id, section, keywords, issue: op.issue, insight, occurrences, active: true, at, created: at });
    this.put(id, { skill, rev: { content: r, active: r, counters: r } });
    this.added.push([id, section]);
    this.active[section] += 1;
    return { applied: appliedOp(op, { section, skill_id: id, issue: op.issue, keywords, insight, sources: occurrences, at }) };
  }

  private idFor(op: ParsedOperation, section: Section): string | { readonly error: SkillbookErrorInfo } {
    let id: string;
    if (op.skillId) id = op.skillId;
    else if (this.options.allocate === null) {
      return { error: errorInfo('invalid_operation', 'a replayed ADD must name its skill_id', { opIndex: op.opIndex }) };
    } else if (this.options.allocate === 'own') id = this.counter.allocate(section);
    else id = this.options.allocate(section);
    if (this.exists(id)) return this.duplicate(op, id);
    this.counter.observe(id);
    if (op.skillId) this.named.add(id);
    return id;
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
    const at = this.options.timeOf(op);
    const r = this.options.revision;
    const contentChanged = issue !== old.issue || insight !== (old.insight ?? null) || !sameList(keywords, old.keywords);
    const skill = makeSkill({ ...old, id: old.id, issue, keywords, insight, occurrences, at, created: old.created_at });
    const rev = {
      content: contentChanged ? r : entry.rev.content,
      active: entry.rev.active,
      counters: occurrences !== old.occurrences ? r : entry.rev.counters,
    };
    this.put(old.id, { skill, rev });
    const given = {
      section: old.section,
      skill_id: old.id,
      issue: op.issue,
      keywords: op.keywords.length > 0 ? op.keywords : null,
      insight: op.insight,
      sources: op.sources ?? [],
      at,
    };
    return { applied: appliedOp(op, given) };
  }

  private tag(op: ParsedOperation, entry: SkillEntry): Outcome {
    const old = entry.skill;
    const occurrences = appendUniqueSources(old.occurrences, op.sources ?? []);
    const at = this.options.timeOf(op);
    const counts = {
      helpful_count: old.helpful_count + (op.delta === 1 ? 1 : 0),
      harmful_count: old.harmful_count + (op.delta === -1 ? 1 : 0),
      neutral_count: old.neutral_count + (op.delta === 0 ? 1 : 0),
    };
    const skill = makeSkill({ ...old, ...counts, insight: old.insight ?? null, occurrences, at, created: old.created_at });
    this.put(old.id, { skill, rev: { ...entry.rev, counters: this.options.revision } });
    const applied = appliedOp(op, { section: old.section, skill_id: old.id, sources: op.sources ?? [], at, tag: true });
    return { applied };
  }

  private remove(op: ParsedOperation, entry: SkillEntry): Outcome {
    const old = entry.skill;
    const occurrences = appendUniqueSources(old.occurrences, op.sources ?? []);
    const at = this.options.timeOf(op);
    const r = this.options.revision;
    const skill = makeSkill({ ...old, insight: old.insight ?? null, occurrences, active: false, at, created: old.created_at });
    const rev = {
      content: entry.rev.content,
      active: old.active ? r : entry.rev.active,
      counters: occurrences !== old.occurrences ? r : entry.rev.counters,
    };
    this.put(old.id, { skill, rev });
    if (old.active) this.active[old.section as Section] -= 1;
    return { applied: appliedOp(op, { section: old.section, skill_id: old.id, sources: op.sources ?? [], at }) };
  }
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}

interface SkillFields {
  readonly id: string;
  readonly section: string;
  readonly keywords: readonly string[];
  readonly issue: string;
  readonly insight: string | null;
  readonly occurrences: readonly InsightSource[];
  readonly active?: boolean;
  readonly used_count?: number;
  readonly helpful_count?: number;
  readonly harmful_count?: number;
  readonly neutral_count?: number;
  readonly created: string;
  readonly at: string;
}

/** A skill object in ACE's key order (`insight` omitted when absent; the document writes `null`). */
function makeSkill(f: SkillFields): Skill {
  return {
    id: f.id as SkillId,
    section: f.section,
    keywords: f.keywords,
    issue: f.issue,
    ...(f.insight !== null ? { insight: f.insight } : {}),
    occurrences: f.occurrences,
    active: f.active ?? true,
    used_count: f.used_count ?? 0,
    helpful_count: f.helpful_count ?? 0,
    harmful_count: f.harmful_count ?? 0,
    neutral_count: f.neutral_count ?? 0,
    created_at: f.created,
    updated_at: f.at,
  };
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

/** An {@link AppliedOp} in ACE's `to_json` key order, plus `at`. Frozen. */
function appliedOp(op: ParsedOperation, f: AppliedFields): AppliedOp {
  const out: Record<string, unknown> = { type: op.type, section: f.section };
  if (f.issue !== null && f.issue !== undefined) out['issue'] = f.issue;
  if (f.keywords) out['keywords'] = Object.freeze([...f.keywords]);
  if (f.insight !== null && f.insight !== undefined) out['insight'] = f.insight;
  out['skill_id'] = f.skill_id;
  if (f.tag) out['metadata'] = tagMetadata(op);
  if (op.reason !== null) out['reason'] = op.reason;
  if (f.sources.length > 0) out['insight_source'] = Object.freeze([...f.sources]);
  out['at'] = f.at;
  return Object.freeze(out) as unknown as AppliedOp;
}

/** TAG metadata as applied: `delta` normalised to its sign, other integer entries kept. */
function tagMetadata(op: ParsedOperation): Readonly<Record<string, number>> {
  const entries = Object.entries(op.metadata)
    .filter(([key, value]) => key === 'delta' || Number.isSafeInteger(value))
    .map(([key, value]): [string, number] => [key, key === 'delta' ? op.delta : value]);
  if (!entries.some(([key]) => key === 'delta')) entries.unshift(['delta', op.delta]);
  return Object.freeze(Object.fromEntries(entries));
}
