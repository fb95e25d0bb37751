import type { Skill, Skillbook } from '@cohort/skillbook';
import type { BookDiff, SkillView } from './Recording.ts';

/** Skills listed per kind of change; the counts stay exact beyond it. */
export const DIFF_LIST_LIMIT = 500;

/**
 * The skills a run added, removed (soft-removed or purged) and changed between two books.
 * Books share unchanged skills structurally, so an unchanged skill costs one identity check.
 *
 * @example
 * const diff = diffBooks(before, after);
 * diff.counts; // { added: 2, removed: 0, changed: 1, unchanged: 40 }
 */
export function diffBooks(before: Skillbook, after: Skillbook, limit = DIFF_LIST_LIMIT): BookDiff {
  const diff: BookDiff = {
    before: { revision: before.revision, skills: before.size },
    after: { revision: after.revision, skills: after.size },
    added: [],
    removed: [],
    changed: [],
    counts: { added: 0, removed: 0, changed: 0, unchanged: 0 },
  };
  const { counts } = diff;
  for (const skill of after.skills()) {
    const old = before.get(skill.id);
    if (old === skill) counts.unchanged += 1;
    else if (!old) {
      if (counts.added++ < limit) diff.added.push(skillView(skill));
    } else if (old.active && !skill.active) {
      if (counts.removed++ < limit) diff.removed.push(skillView(skill));
    } else if (sameSkill(old, skill)) counts.unchanged += 1;
    else if (counts.changed++ < limit) diff.changed.push({ before: skillView(old), after: skillView(skill) });
  }
  if (before.size + counts.added > after.size) {
    for (const skill of before.skills()) {
      if (after.has(skill.id)) continue;
      if (counts.removed++ < limit) diff.removed.push(skillView(skill));
    }
  }
  return diff;
}

/** A skill as the report shows it: content, flag and tag counts. */
export function skillView(skill: Skill): SkillView {
  return {
    id: skill.id,
    section: skill.section,
    issue: skill.issue,
    ...(skill.insight !== undefined ? { insight: skill.insight } : {}),
    keywords: [...skill.keywords],
    active: skill.active,
    helpful: skill.helpful_count,
    harmful: skill.harmful_count,
    neutral: skill.neutral_count,
  };
}

function sameSkill(a: Skill, b: Skill): boolean {
  return (
    a.issue === b.issue &&
    a.insight === b.insight &&
    a.active === b.active &&
    a.section === b.section &&
    a.helpful_count === b.helpful_count &&
    a.harmful_count === b.harmful_count &&
    a.neutral_count === b.neutral_count &&
    a.keywords.join('\u0000') === b.keywords.join('\u0000')
  );
}
