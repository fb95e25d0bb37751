/**
 * Conflict detection for commits (the conflict table, docs/internals/conflicts.md): which ops of a commit based on
 * revision `base` collide with what changed in this book since then.
 */
import { idSuffix } from './createIdAllocator.ts';
import type { BookReader } from './internal/BookState.ts';
import type { ChangedAfter } from './internal/ChangeLog.ts';
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
 *
 * Every conflict needs a change after `base`, or (for an ADD) an id the book had at `base`.
 * So when the book knows which few ids changed since `base` (its recent-changes log), an op
 * on any other id is settled without looking it up in the whole book — which on a large book
 * is a chain of reads that miss the CPU caches: the cost per op stays the same at any size.
 * Ops on ids that did change, and every op when `base` is older than the log reaches or too
 * much changed since, are looked up as before: the answer is the same either way.
 */
export function findConflicts(state: BookReader, ops: readonly AppliedOp[], base: number): Conflict[] {
  const out: Conflict[] = [];
  // gathered at the first op that can conflict (a commit of TAGs never needs it)
  let changed: ChangedAfter | null | undefined;
  for (let opIndex = 0; opIndex < ops.length; opIndex++) {
    const op = ops[opIndex] as AppliedOp;
    if (op.type === 'TAG') continue;
    if (changed === undefined) changed = state.changedAfter(base, budgetFor(ops.length));
    const found = settledUnchanged(changed, op) ? null : conflictOf(state, op, base);
    if (found) out.push(Object.freeze({ opIndex, type: op.type, skillId: op.skill_id, reason: found[0], revision: found[1] }));
  }
  return out;
}

/**
 * How many changed ids are worth gathering for `count` ops: gathering one costs about what
 * looking one op up in a small book does, far less than in a large one.
 */
function budgetFor(count: number): number {
  return 4 * count + 64;
}

/**
 * Whether `op` certainly does not conflict because its id did not change after `base`: then
 * an UPDATE or REMOVE target's revisions and tombstone are all at or before `base`; and an
 * ADD's id, when its numeric suffix is above the `next_id` the book had before every change
 * the set holds, did not exist then either (every id a book has or had keeps `next_id` at or
 * above its suffix), so it exists nowhere now.
 */
function settledUnchanged(changed: ChangedAfter | null, op: AppliedOp): boolean {
  const id: unknown = op.skill_id;
  if (changed === null || typeof id !== 'string' || changed.has(id)) return false;
  if (op.type !== 'ADD') return true;
  const n = idSuffix(id);
  return n !== undefined && n > changed.nextIdBound;
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
