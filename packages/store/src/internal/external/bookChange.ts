import type { InsightSource, Skill, Skillbook } from '@cohort/skillbook';

/** What turns one book into another, skill by skill (the content of an external record). */
export interface BookChange {
  /** Skills of `after` that `before` lacks or holds otherwise. */
  readonly skills: readonly Skill[];
  /** Ids of `before` that `after` lacks. */
  readonly purged: readonly string[];
  readonly next: number;
}

function sameList<T>(a: readonly T[], b: readonly T[], same: (x: T, y: T) => boolean): boolean {
  return a.length === b.length && a.every((x, i) => same(x, b[i] as T));
}

function sameSource(a: InsightSource, b: InsightSource): boolean {
  if (a === b) return true;
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  return ka.length === kb.length && ka.every((k, i) => k === kb[i] && Reflect.get(a, k) === Reflect.get(b, k));
}

/** Whether two skills hold the same fields (what a document writes for them). */
export function sameSkillFields(a: Skill, b: Skill): boolean {
  return (
    a === b ||
    (a.id === b.id &&
      a.section === b.section &&
      a.issue === b.issue &&
      a.insight === b.insight &&
      a.active === b.active &&
      a.used_count === b.used_count &&
      a.helpful_count === b.helpful_count &&
      a.harmful_count === b.harmful_count &&
      a.neutral_count === b.neutral_count &&
      a.created_at === b.created_at &&
      a.updated_at === b.updated_at &&
      sameList(a.keywords, b.keywords, (x, y) => x === y) &&
      sameList(a.occurrences, b.occurrences, sameSource))
  );
}

/** The skills `after` adds or changes against `before`, the ids it lacks, and its `next_id`. O(n). */
export function bookChange(before: Skillbook, after: Skillbook): BookChange {
  const skills: Skill[] = [];
  for (const skill of after.skills()) {
    const was = before.get(skill.id);
    if (!was || !sameSkillFields(was, skill)) skills.push(skill);
  }
  const purged: string[] = [];
  for (const skill of before.skills()) if (!after.has(skill.id)) purged.push(skill.id);
  return { skills, purged, next: after.nextId };
}
