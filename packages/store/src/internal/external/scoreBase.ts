import type { Skill, Skillbook } from '@cohort/skillbook';
import { sameSkillFields } from './bookChange.ts';
import { SKILL_COUNTERS, sameSkill } from '../sequencing/contentConflicts.ts';

/**
 * How well a version explains another writer's document, as the version it started from:
 * skills it holds as they are (`identical`), skills the writer changed on top of it
 * (`descended`: counters no lower, `updated_at` no earlier), skills the writer added,
 * skills of the version the document lacks (`missing`: the writer deleted them, or the version
 * is newer than what it loaded) and skills that cannot have come from it (`inconsistent`:
 * counters went down, or the document's copy is older than the version's).
 */
export interface BaseScore {
  readonly identical: number;
  readonly descended: number;
  readonly added: number;
  /** The ids of the skills counted as `added`: the document's skills the version lacks, or holds as another skill. */
  readonly addedIds: readonly string[];
  readonly missing: number;
  readonly inconsistent: number;
  /**
   * Of `descended`: skills that differ while their `updated_at` is the version's — edited by
   * hand, or an older copy of a skill the version holds as changed since at the same moment:
   * either way a weaker explanation.
   */
  readonly ambiguous: number;
  /** The newest `updated_at` among the skills the writer changed or added on top of the version (`''`: none). */
  readonly newestChange: string;
}

function descends(from: Skill, to: Skill): boolean {
  return (
    to.updated_at >= from.updated_at && SKILL_COUNTERS.every((k) => to[k] >= from[k]) && to.occurrences.length >= from.occurrences.length
  );
}

/** Scores `version` as the base of `disk` (both as their writers wrote them, ids untouched). O(n). */
export function scoreBase(version: Skillbook, disk: Skillbook): BaseScore {
  let identical = 0;
  let descended = 0;
  const addedIds: string[] = [];
  let inconsistent = 0;
  let ambiguous = 0;
  let newestChange = '';
  for (const d of disk.skills()) {
    const v = version.get(d.id);
    if (v && sameSkillFields(v, d)) {
      identical += 1;
      continue;
    }
    if (!v || !sameSkill(v, d)) addedIds.push(d.id);
    else if (descends(v, d)) {
      descended += 1;
      if (d.updated_at === v.updated_at) ambiguous += 1;
    } else {
      inconsistent += 1;
      continue;
    }
    if (d.updated_at > newestChange) newestChange = d.updated_at;
  }
  let missing = 0;
  for (const v of version.skills()) {
    const d = disk.get(v.id);
    if (!d || !sameSkill(v, d)) missing += 1;
  }
  return { identical, descended, added: addedIds.length, addedIds, missing, inconsistent, ambiguous, newestChange };
}

/**
 * Whether a score makes its version the document's base: nothing in the document contradicts
 * it (at most 2 % of the skills both hold), and the document lacks at most a few of its skills
 * (3, or a tenth): a document that lacks most of a version was not made from it, and taking
 * it as the base would read Cohort's skills as deleted.
 */
export function isBase(score: BaseScore, versionSize: number): boolean {
  const shared = score.identical + score.descended + score.inconsistent;
  return score.inconsistent <= Math.floor(shared * 0.02) && score.missing <= Math.max(3, Math.floor(versionSize * 0.1));
}

/**
 * How a score ranks (higher is a better base): minus the changes the writer must have made on
 * top of the version to give the document — each skill it changed or added counts one (two for
 * an `ambiguous` change), each it deleted two (deletions are rarer, and a version newer than the
 * one the writer loaded shows Cohort's newer skills as deleted). The version the writer loaded
 * needs the fewest.
 */
export function rank(score: BaseScore): number {
  return -(score.descended + score.ambiguous + score.added + 2 * (score.missing + score.inconsistent));
}
