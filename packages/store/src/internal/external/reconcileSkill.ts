import type { InsightSource, PlainSkill, Skill } from '@cohort/skillbook';
import { sameSkillFields } from './bookChange.ts';
import { SKILL_COUNTERS, sameContent } from '../sequencing/contentConflicts.ts';

/** Why another writer's change of one skill could not be taken (docs/internals/conflicts.md, and the case of no known base). */
export type SkillConflictReason = 'content_changed' | 'removed' | 'no_base';

/** A real conflict: the other writer's change of a skill against Cohort's. */
export interface SkillConflict {
  /** What the other writer did: changed its content, or retired or deleted it. */
  readonly type: 'UPDATE' | 'REMOVE';
  readonly reason: SkillConflictReason;
  /** The other writer's version (`null`: deleted from its document). */
  readonly theirs: Skill | null;
}

/** What becomes of one skill of the live book: kept, replaced by a reconciled version, or deleted; and a conflict, if one. */
export interface SkillReconciliation {
  readonly outcome: 'keep' | 'put' | 'purge';
  /** For `put`: the reconciled version. */
  readonly skill?: PlainSkill;
  readonly conflict?: SkillConflict;
}

const KEEP: SkillReconciliation = { outcome: 'keep' };

/** The canonical JSON of a source (keys sorted), as ACE de-duplicates them. */
function signature(source: InsightSource): string {
  const entries = Object.entries(source)
    .filter(([, v]) => v !== undefined)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return JSON.stringify(entries);
}

/** `into` plus the sources of `from` it lacks, in order (ACE's `_append_unique_sources`). */
function unionSources(into: readonly InsightSource[], from: readonly InsightSource[]): readonly InsightSource[] {
  if (from.length === 0) return into;
  const seen = new Set(into.map(signature));
  const added = from.filter((s) => {
    const sig = signature(s);
    if (seen.has(sig)) return false;
    seen.add(sig);
    return true;
  });
  return added.length === 0 ? into : [...into, ...added];
}

/** `skill` with the content (issue, keywords, insight) of `of`. */
function withContent(skill: PlainSkill, of: Skill): PlainSkill {
  const { insight: _mine, ...rest } = skill;
  return { ...rest, issue: of.issue, keywords: of.keywords, ...(of.insight === undefined ? {} : { insight: of.insight }) };
}

const latest = (...times: readonly string[]): string => times.reduce((a, b) => (b > a ? b : a));

/**
 * `next` when it differs from `live`, else keep. A reconciled version is changed now (`at`): it is
 * newer than both sides', so a later save built from the writer's older copy cannot pass for
 * one built on top of it.
 */
function settle(live: Skill, next: PlainSkill, theirs: Skill, at: string, conflict?: SkillConflict): SkillReconciliation {
  if (sameSkillFields(live, next as Skill)) return conflict ? { outcome: 'keep', conflict } : KEEP;
  const skill = { ...next, updated_at: latest(at, live.updated_at, theirs.updated_at) };
  return conflict ? { outcome: 'put', skill, conflict } : { outcome: 'put', skill };
}

/**
 * Reconciles the other writer's version of one skill (`theirs`, from its document) with the
 * live book's (`live`), three ways against the version it started from (`base`); all three the
 * same skill (id and `created_at`) or absent. The writer's change is rebased onto the live
 * book with the conflict table: its content change applies unless Cohort changed the content
 * too (differently) or removed the skill; its removal applies unless Cohort changed the
 * content (a removal is never undone); its counter increments always count, once (`live + theirs − base`); sources are
 * united. A skill missing from the document was deleted by the writer only if `base` had it.
 * `at` is when the reconciliation happens (ACE's timestamp format). `counterBase`: another version the
 * writer may have started from (see `BaseMatch.tied`): increments count from the later of the two.
 */
export function reconcileSkill(
  base: Skill | undefined,
  theirs: Skill | undefined,
  live: Skill | undefined,
  at: string,
  counterBase?: Skill,
): SkillReconciliation {
  if (!theirs) {
    if (!base || !live) return KEEP;
    return sameContent(base, live)
      ? { outcome: 'purge' }
      : { ...KEEP, conflict: { type: 'REMOVE', reason: 'content_changed', theirs: null } };
  }
  if (!live) {
    if (!base) return { outcome: 'put', skill: theirs };
    // gone from the live book since (deleted by another writer): only a real change of theirs is a conflict
    const changed = !sameContent(base, theirs) || base.active !== theirs.active;
    return changed ? { ...KEEP, conflict: { type: sameContent(base, theirs) ? 'REMOVE' : 'UPDATE', reason: 'removed', theirs } } : KEEP;
  }
  if (!base) return reconcileWithoutBase(theirs, live, at);
  return reconcileThreeWays(base, theirs, live, at, counterBase);
}

function reconcileThreeWays(base: Skill, theirs: Skill, live: Skill, at: string, counterBase?: Skill): SkillReconciliation {
  const theirContent = !sameContent(base, theirs);
  const ourContent = !sameContent(base, live);
  const ourRemoval = base.active && !live.active;
  let next: PlainSkill = { ...live };
  let conflict: SkillConflict | undefined;
  if (theirContent && !(ourContent && sameContent(live, theirs))) {
    if (ourContent) conflict = { type: 'UPDATE', reason: 'content_changed', theirs };
    else if (ourRemoval) conflict = { type: 'UPDATE', reason: 'removed', theirs };
    else next = withContent(next, theirs);
  }
  if (base.active && !theirs.active && live.active) {
    if (ourContent) conflict ??= { type: 'REMOVE', reason: 'content_changed', theirs };
    else next = { ...next, active: false };
  }
  // a removed skill stays removed: ACE cannot bring one back, and a copy that shows it active may just be older
  for (const k of SKILL_COUNTERS) next = { ...next, [k]: live[k] + Math.max(0, theirs[k] - Math.max(base[k], counterBase?.[k] ?? 0)) };
  const fresh = theirs.occurrences.filter((s) => !base.occurrences.some((b) => signature(b) === signature(s)));
  next = { ...next, occurrences: unionSources(live.occurrences, fresh) };
  return settle(live, next, theirs, at, conflict);
}

/**
 * No version the writer started from is known: take nothing that could undo Cohort's work.
 * Counters take the larger of the two; a version of theirs that differs and is newer than the
 * live one (by `updated_at`) is a conflict (kept for review), an older one is stale (ignored).
 */
function reconcileWithoutBase(theirs: Skill, live: Skill, at: string): SkillReconciliation {
  if (sameSkillFields(live, theirs)) return KEEP;
  let next: PlainSkill = { ...live };
  for (const k of SKILL_COUNTERS) next = { ...next, [k]: Math.max(live[k], theirs[k]) };
  next = { ...next, occurrences: unionSources(live.occurrences, theirs.occurrences) };
  const newer = theirs.updated_at > live.updated_at;
  let conflict: SkillConflict | undefined;
  if (newer && !sameContent(live, theirs)) conflict = { type: 'UPDATE', reason: 'no_base', theirs };
  else if (newer && live.active && !theirs.active) conflict = { type: 'REMOVE', reason: 'no_base', theirs };
  return settle(live, next, theirs, at, conflict);
}
