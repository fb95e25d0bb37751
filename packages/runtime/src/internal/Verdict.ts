import type { SkillId } from '@cohort/skillbook';
import type { FailureSeed } from '../FailureSeed.ts';
import { failureSeed } from '../FailureSeed.ts';
import type { MergeDecision, MergeRefusal } from '../mergeCommit.ts';
import type { SessionAnswer } from '../sessionMachine.ts';

/** What a merge decided about a commit: merged at `revision`, or refused for the seed's reason. */
export type Verdict =
  | { readonly ok: true; readonly revision: number; readonly merge: MergeDecision }
  | { readonly ok: false; readonly failure: FailureSeed };

/** A verdict refusing a commit. */
export function refused(failure: FailureSeed): Verdict {
  return { ok: false, failure };
}

/** The verdict of a commit refused as a whole by the conflict check or by the book. */
export function refusalVerdict(refusal: MergeRefusal): Verdict {
  return refusal.kind === 'conflict'
    ? refused(failureSeed('conflict', refusal.message, { conflicts: refusal.conflicts }))
    : refused(failureSeed('invalid_commit', refusal.message));
}

/**
 * The session's answer a verdict amounts to: `MERGED` with what landed (the ids its ADDs
 * landed under among them), or `REJECTED` with the failure.
 */
export function answerOf(verdict: Verdict): SessionAnswer {
  if (!verdict.ok) return { type: 'REJECTED', failure: verdict.failure };
  const { ops, dropped } = verdict.merge;
  const added: SkillId[] = [];
  for (const op of ops) if (op.type === 'ADD') added.push(op.skill_id as SkillId);
  return { type: 'MERGED', revision: verdict.revision, ops: ops.length, added, dropped };
}
