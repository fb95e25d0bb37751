/**
 * Conflict detection for commits (DESIGN.md, "Conflicts"): which ops of a commit based on
 * revision `base` collide with what changed in this book since then.
 */
import type { BookReader } from './internal/BookState.ts';
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
export function findConflicts(state: BookReader, ops: readonly AppliedOp[], base: number): Conflict[] {
  const out: Conflict[] = [];
  ops.forEach((op, opIndex) => {
    const found = conflictOf(state, op, base);
    if (found) out.push(Object.freeze({ opIndex, type: op.type, skillId: op.skill_id, reason: found[0], revision: found[1] }));
  });
  return out;
}

function conflictOf(state: BookReader, op: AppliedOp, base: number): readonly [ConflictReason, number] | null {
  if (op.type === 'TAG') return null;
  const entry = state.entry(op.skill_id);
  const purgedAt = entry ? undefined : state.tombstone(op.skill_id);
  if (op.type === 'ADD') {
    if (entry) return ['id_exists', entry.contentRev];
    return purgedAt === undefined ? null : ['id_exists', purgedAt];
  }
  if (!entry) return op.type === 'UPDATE' && purgedAt !== undefined && purgedAt > base ? ['removed', purgedAt] : null;
  // the revisions are in the entry, the flag in the skill: look at the skill only when it matters
  if (op.type === 'REMOVE') {
    return entry.contentRev > base && entry.skill.active ? ['content_changed', entry.contentRev] : null;
  }
  if (entry.contentRev > base) return ['content_changed', entry.contentRev];
  if (entry.activeRev > base && !entry.skill.active) return ['removed', entry.activeRev];
  return null;
}
