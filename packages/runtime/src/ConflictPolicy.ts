import type { AppliedOp, Conflict, Skill } from '@cohort/skillbook';

/**
 * Decides one conflicting op: `keep` applies it anyway (its writer wins), `drop` leaves the
 * parent's version and reports the op, `reject` refuses the whole commit.
 */
export type ConflictResolver = (
  conflict: Conflict,
  context: { readonly op: AppliedOp; readonly current: Skill | undefined },
) => 'keep' | 'drop' | 'reject';

/**
 * How a supervisor treats a commit whose ops conflict with what changed since its base:
 * `reject` (default) refuses the whole commit; `rebase` applies the ops that do not conflict
 * and reports the rest; `last-writer-wins` applies everything it can; or a resolver per op.
 */
export type ConflictPolicy = 'reject' | 'rebase' | 'last-writer-wins' | ConflictResolver;
