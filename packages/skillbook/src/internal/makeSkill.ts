/**
 * Skill objects: the one place they are made, so that every skill — applied, replayed, read
 * from a document or from a snapshot — is an object of one of two shapes (with or without
 * `insight`), in ACE's key order.
 */
import type { InsightSource, Skill, SkillId } from '../types.ts';

/** A skill's fields; the counters default to 0 and `active` to true. */
export interface SkillFields {
  readonly id: string;
  readonly section: string;
  readonly keywords: readonly string[];
  readonly issue: string;
  readonly insight: string | null;
  readonly occurrences: readonly InsightSource[];
  readonly active?: boolean | undefined;
  readonly used_count?: number | undefined;
  readonly helpful_count?: number | undefined;
  readonly harmful_count?: number | undefined;
  readonly neutral_count?: number | undefined;
  readonly created: string;
  readonly at: string;
}

/** A skill object in ACE's key order (`insight` omitted when absent; the document writes `null`). */
export function makeSkill(f: SkillFields): Skill {
  const id = f.id as SkillId;
  const active = f.active ?? true;
  const used_count = f.used_count ?? 0;
  const helpful_count = f.helpful_count ?? 0;
  const harmful_count = f.harmful_count ?? 0;
  const neutral_count = f.neutral_count ?? 0;
  const { section, keywords, issue, occurrences } = f;
  // two literals rather than a spread of `{ insight }`: every skill an object of one of two shapes, made without a temporary
  if (f.insight === null) {
    return {
      id,
      section,
      keywords,
      issue,
      occurrences,
      active,
      used_count,
      helpful_count,
      harmful_count,
      neutral_count,
      created_at: f.created,
      updated_at: f.at,
    };
  }
  const insight = f.insight;
  return {
    id,
    section,
    keywords,
    issue,
    insight,
    occurrences,
    active,
    used_count,
    helpful_count,
    harmful_count,
    neutral_count,
    created_at: f.created,
    updated_at: f.at,
  };
}

/** What an op changes in a skill it revises; what is not given stays as it was. */
export interface SkillRevision {
  readonly occurrences: readonly InsightSource[];
  readonly at: string;
  readonly keywords?: readonly string[];
  readonly issue?: string;
  readonly insight?: string | null;
  readonly active?: boolean | undefined;
  readonly helpful_count?: number | undefined;
  readonly harmful_count?: number | undefined;
  readonly neutral_count?: number | undefined;
}

/** `old` made again at `change.at` with what an op changed; its id, section and creation time stay. */
export function reviseSkill(old: Skill, change: SkillRevision): Skill {
  return makeSkill({
    id: old.id,
    section: old.section,
    keywords: change.keywords ?? old.keywords,
    issue: change.issue ?? old.issue,
    insight: change.insight === undefined ? (old.insight ?? null) : change.insight,
    occurrences: change.occurrences,
    active: change.active ?? old.active,
    used_count: old.used_count,
    helpful_count: change.helpful_count ?? old.helpful_count,
    harmful_count: change.harmful_count ?? old.harmful_count,
    neutral_count: change.neutral_count ?? old.neutral_count,
    created: old.created_at,
    at: change.at,
  });
}

/** Deep-freezes a skill (its insight sources are frozen when made). */
export function freezeSkill(skill: Skill): Skill {
  if (Object.isFrozen(skill)) return skill;
  Object.freeze(skill.keywords);
  Object.freeze(skill.occurrences);
  return Object.freeze(skill);
}
