import type { AppliedOp } from '@cohort/skillbook';

/**
 * The ops of a commit (a `CommitRecord`, a `PersistedCommit`): its blocks' ops, in order.
 *
 * @example
 * const ops = commitOps(commit); // what replaying the commit applies
 */
export function commitOps(commit: { readonly entries: readonly { readonly ops: readonly AppliedOp[] }[] }): AppliedOp[] {
  const out: AppliedOp[] = [];
  for (const block of commit.entries) for (const op of block.ops) out.push(op);
  return out;
}
