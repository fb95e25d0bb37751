import type { AppliedOp, Conflict, Skill, Skillbook } from '@cohort/skillbook';
import type { SkillSide } from '../../StoreNotice.ts';

/** A skill's counters, which commits and reconciliations add up and never count down. */
export const SKILL_COUNTERS = ['used_count', 'helpful_count', 'harmful_count', 'neutral_count'] as const;

/**
 * Whether two skills under one id are the same skill: ACE keeps `created_at` for a skill's
 * whole life, so another `created_at` means another writer allocated the id again.
 */
export function sameSkill(a: Skill, b: Skill): boolean {
  return a.created_at === b.created_at;
}

/** Whether two versions of a skill have the same content (issue, keywords, insight): counters and provenance are not content. */
export function sameContent(a: Skill, b: Skill): boolean {
  if (a.issue !== b.issue || (a.insight ?? '') !== (b.insight ?? '')) return false;
  if (a.keywords.length !== b.keywords.length) return false;
  return a.keywords.every((k, i) => k === b.keywords[i]);
}

/** One side of a conflict, as notices and recovery results show it. */
export function skillSide(s: Skill): SkillSide {
  return { issue: s.issue, insight: s.insight ?? null, keywords: [...s.keywords], active: s.active, updatedAt: s.updated_at };
}

/**
 * The conflict table (docs/internals/conflicts.md), decided by content instead of revision numbers: the ops of a
 * commit against what changed between `pre` and `post` (another writer's document, a reload).
 * Used where the skillbook's per-skill revisions cannot tell, because the change did not
 * arrive as ops. `revision` is reported as the revision at which the targets changed.
 */
export function contentConflicts(pre: Skillbook, post: Skillbook, ops: readonly AppliedOp[], revision: number): Conflict[] {
  const conflicts: Conflict[] = [];
  const ownAdds = new Set<string>();
  ops.forEach((op, opIndex) => {
    const id = op.skill_id;
    const push = (reason: Conflict['reason']): void => {
      conflicts.push({ opIndex, type: op.type, skillId: id, reason, revision });
    };
    if (op.type === 'ADD') {
      if (post.get(id) && !pre.get(id)) push('id_exists');
      ownAdds.add(id);
      return;
    }
    if (op.type === 'TAG' || ownAdds.has(id)) return;
    const before = pre.get(id);
    const after = post.get(id);
    if (!before) {
      // the target appeared meanwhile: it is another writer's skill, not the one the session saw
      if (after) push('content_changed');
      return;
    }
    if (!after) {
      if (op.type === 'UPDATE') push('removed');
      return;
    }
    if (!sameContent(before, after)) push('content_changed');
    else if (op.type === 'UPDATE' && before.active && !after.active) push('removed');
  });
  return conflicts;
}

/** Joins conflict lists, keeping the first conflict reported for each op. */
export function joinConflicts(lists: readonly (readonly Conflict[])[]): Conflict[] {
  const byOp = new Map<number, Conflict>();
  for (const list of lists) for (const c of list) if (!byOp.has(c.opIndex)) byOp.set(c.opIndex, c);
  return [...byOp.values()].sort((a, b) => a.opIndex - b.opIndex);
}
