/**
 * Conflict detection for commits (DESIGN.md, "Conflicts"): which ops of a commit based on
 * revision `base` collide with what changed in this book since then.
 */
import type { BookState } from './internal/BookState.ts';
import { shardedGet } from './internal/ShardedMap.ts';
import type { AppliedOp, Conflict, ConflictReason } from './types.ts';

/**
 * Lists the conflicting ops, in op order:
 *
 * | op | conflicts when |
 * | --- | --- |
 * | ADD | its `skill_id` exists here, or was purged here (`id_exists`) |
 * | TAG | never (increments commute) |
 * | UPDATE | the target's content changed after `base` (`content_changed`), or it was deactivated or purged after `base` (`removed`) |
 * | REMOVE | the target is still active and its content changed after `base` (`content_changed`) |
 *
 * Ids this book never had never conflict (the op is skipped when applied, as in ACE).
 */
export function findConflicts(state: BookState, ops: readonly AppliedOp[], base: number): Conflict[] {
  const out: Conflict[] = [];
  ops.forEach((op, opIndex) => {
    const found = conflictOf(state, op, base);
    if (found) out.push(Object.freeze({ opIndex, type: op.type, skillId: op.skill_id, reason: found[0], revision: found[1] }));
  });
  return out;
}

function conflictOf(state: BookState, op: AppliedOp, base: number): readonly [ConflictReason, number] | null {
  if (op.type === 'TAG') return null;
  const entry = shardedGet(state.skills, op.skill_id);
  const purgedAt = entry ? undefined : shardedGet(state.tombstones, op.skill_id);
  if (op.type === 'ADD') {
    if (entry) return ['id_exists', entry.rev.content];
    return purgedAt === undefined ? null : ['id_exists', purgedAt];
  }
  if (!entry) return op.type === 'UPDATE' && purgedAt !== undefined && purgedAt > base ? ['removed', purgedAt] : null;
  if (op.type === 'REMOVE') {
    return entry.skill.active && entry.rev.content > base ? ['content_changed', entry.rev.content] : null;
  }
  if (entry.rev.content > base) return ['content_changed', entry.rev.content];
  if (!entry.skill.active && entry.rev.active > base) return ['removed', entry.rev.active];
  return null;
}
