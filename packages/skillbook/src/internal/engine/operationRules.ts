/**
 * ACE's four operations (`add_skill`, `update_skill`, `tag_skill`, `remove_skill`), each as one
 * rule: what it requires, the skill it makes, and the applied op that says so. The rules
 * write only into the run's overlay ({@link RuleScope}), never into a book: the caller
 * commits the overlay once every op of the batch has succeeded.
 */
import { coerceSectionAndKeywords, isSection, normalizeKeywords, normalizeRequiredText } from '../../normalize.ts';
import type { ParsedOperation } from '../../parseOperation.ts';
import { appendUniqueSources } from '../../insightSource.ts';
import type { AppliedOp, InsightSource, Section, Skill, SkillbookErrorInfo } from '../../types.ts';
import type { AppliedFields } from './appliedOp.ts';
import type { SkillEntry } from '../BookState.ts';
import { makeSkill, reviseSkill } from '../makeSkill.ts';
import { PyError } from '../python.ts';
import type { Effect } from './replayCache.ts';

/** What an op came to: applied, skipped (ACE's no-op on an unknown id), or refused (the whole batch is). */
export type Outcome =
  | { readonly applied: AppliedOp }
  | { readonly skipped: string; readonly code: 'no_skill' | 'no_change' }
  | { readonly error: SkillbookErrorInfo };

/** What the rules need of the run they are part of. */
export interface RuleScope {
  /** The ACE timestamp of an op that applies. */
  timeOf(op: ParsedOperation): string;
  /** The id for an ADD in `section`: the one it names, or a new one; or why it cannot have one. */
  idFor(op: ParsedOperation, section: Section): string | { readonly error: SkillbookErrorInfo };
  /** Whether `id` was named before, by the book or an earlier ADD of the run (Cohort refuses to add it again). */
  namedBefore(id: string): boolean;
  duplicate(op: ParsedOperation, id: string): { readonly error: SkillbookErrorInfo };
  /** Keeps a skill an ADD made. */
  putAdded(id: string, skill: Skill): void;
  /** Keeps what an UPDATE, TAG or REMOVE did to `entry`. */
  putEffect(entry: SkillEntry, effect: Effect): void;
  /** The applied op for `op` (the replayed op itself when it says exactly that). */
  applied(op: ParsedOperation, fields: AppliedFields, effect: Effect | Skill): AppliedOp;
}

/** The occurrences of a skill added without sources: one frozen list for all of them. */
const NO_SOURCES: readonly InsightSource[] = Object.freeze([]);

/**
 * ADD: `section` and `issue` are required; no keywords → `[section]`; a legacy section folds
 * into `context` (its name the first keyword, the issue the default insight); a real `context`
 * skill needs an insight; an id the book or the batch had already is refused.
 */
export function addSkill(scope: RuleScope, op: ParsedOperation): Outcome {
  // Cohort's rule is checked first for ids named before (in the book or by an earlier ADD), as
  // the reference does; an allocated id an explicit one collides with is caught at `idFor`
  if (op.skillId && scope.namedBefore(op.skillId)) return scope.duplicate(op, op.skillId);
  const rawSection = normalizeRequiredText(op.section, 'section').toLowerCase();
  // a real section keeps the op's keywords, normalised already (a parsed op's are); a legacy
  // one folds into `context` with its name first, as ACE's coercion does
  let section: Section = 'context';
  let coerced: readonly string[];
  if (isSection(rawSection)) {
    section = rawSection;
    coerced = op.keywords;
  } else [section, coerced] = coerceSectionAndKeywords(op.section, op.keywords);
  if (op.issue === null) throw new PyError('ValueError', 'issue is required and must be non-empty');
  let keywords = coerced.length > 0 ? coerced : defaultKeywords(rawSection);
  // a replayed op's frozen list that says the same is shared rather than copied
  if (Object.isFrozen(op.keywords) && sameList(keywords, op.keywords)) keywords = op.keywords;
  let insight = op.insight;
  if (section === 'context' && insight === null) {
    if (isSection(rawSection)) throw new PyError('ValueError', 'context skills require a non-empty insight');
    insight = op.issue;
  }
  const id = scope.idFor(op, section);
  if (typeof id !== 'string') return id;
  const at = scope.timeOf(op);
  const occurrences = op.sources === null || op.sources.length === 0 ? NO_SOURCES : appendUniqueSources(NO_SOURCES, op.sources);
  const skill = makeSkill({ id, section, keywords, issue: op.issue, insight, occurrences, active: true, at, created: at });
  scope.putAdded(id, skill);
  return { applied: scope.applied(op, { section, skill_id: id, issue: op.issue, keywords, insight, sources: occurrences, at }, skill) };
}

/**
 * UPDATE: changes only what is given (blank text or no keywords leave a field as it is;
 * keywords are replaced); a `context` skill keeps a non-empty insight or the op is refused.
 * Works on inactive skills without reactivating them.
 */
export function updateSkill(scope: RuleScope, op: ParsedOperation, entry: SkillEntry): Outcome {
  const old = entry.skill;
  const issue = op.issue ?? old.issue;
  const keywords = op.keywords.length > 0 ? op.keywords : old.keywords;
  const insight = op.insight ?? old.insight ?? null;
  if (old.section === 'context' && !insight) throw new PyError('ValueError', 'context skills require a non-empty insight');
  const occurrences = appendUniqueSources(old.occurrences, op.sources ?? []);
  const at = scope.timeOf(op);
  const content = issue !== old.issue || insight !== (old.insight ?? null) || !sameList(keywords, old.keywords);
  const skill = reviseSkill(old, { keywords, issue, insight, occurrences, at });
  const effect: Effect = { before: old, after: skill, content, active: false, counters: occurrences !== old.occurrences };
  scope.putEffect(entry, effect);
  const given: AppliedFields = {
    section: old.section,
    skill_id: old.id,
    issue: op.issue,
    keywords: op.keywords.length > 0 ? op.keywords : null,
    insight: op.insight,
    sources: op.sources ?? [],
    at,
  };
  return { applied: scope.applied(op, given, effect) };
}

/** TAG: counts `helpful` / `harmful` / `neutral` by the sign of `metadata.delta`, on inactive skills too. */
export function tagSkill(scope: RuleScope, op: ParsedOperation, entry: SkillEntry): Outcome {
  const old = entry.skill;
  const occurrences = appendUniqueSources(old.occurrences, op.sources ?? []);
  const at = scope.timeOf(op);
  const skill = reviseSkill(old, {
    occurrences,
    at,
    helpful_count: old.helpful_count + (op.delta === 1 ? 1 : 0),
    harmful_count: old.harmful_count + (op.delta === -1 ? 1 : 0),
    neutral_count: old.neutral_count + (op.delta === 0 ? 1 : 0),
  });
  const effect: Effect = { before: old, after: skill, content: false, active: false, counters: true };
  scope.putEffect(entry, effect);
  return { applied: scope.applied(op, { section: old.section, skill_id: old.id, sources: op.sources ?? [], at, tag: true }, effect) };
}

/**
 * REMOVE: soft — `active` becomes false and the skill stays in the document. Removing a skill
 * that is removed already changes nothing unless it brings new insight sources: it is skipped.
 */
export function removeSkill(scope: RuleScope, op: ParsedOperation, entry: SkillEntry): Outcome {
  const old = entry.skill;
  const occurrences = appendUniqueSources(old.occurrences, op.sources ?? []);
  if (!old.active && occurrences === old.occurrences) return { skipped: `skill ${old.id} is already removed`, code: 'no_change' };
  const at = scope.timeOf(op);
  const skill = reviseSkill(old, { occurrences, at, active: false });
  const effect: Effect = { before: old, after: skill, content: false, active: old.active, counters: occurrences !== old.occurrences };
  scope.putEffect(entry, effect);
  return { applied: scope.applied(op, { section: old.section, skill_id: old.id, sources: op.sources ?? [], at }, effect) };
}

/** The keywords of a skill added without any (its section's name), one frozen list per name. */
const sectionKeywords = new Map<string, readonly string[]>();

function defaultKeywords(rawSection: string): readonly string[] {
  let list = sectionKeywords.get(rawSection);
  if (!list) {
    list = Object.freeze(normalizeKeywords([rawSection]));
    // section names are few; a caller inventing thousands only stops being shared
    if (sectionKeywords.size < 256) sectionKeywords.set(rawSection, list);
  }
  return list;
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x === b[i]);
}
