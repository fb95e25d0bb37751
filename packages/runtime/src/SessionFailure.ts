import { z } from 'zod';
import { ErrorInfoSchema } from './ErrorInfo.ts';
import { SessionIdSchema } from './SessionId.ts';

/** Every way a session can end without its work reaching its parent. */
export const FailureKindSchema = z.enum([
  'crashed',
  'aborted',
  'timeout',
  'cancelled',
  'budget_exhausted',
  'conflict',
  'invalid_commit',
  'limit_exceeded',
  'tool_refused',
]);
/** A failure's kind: what happened (see docs/runtime.md, "Failures"). */
export type FailureKind = z.infer<typeof FailureKindSchema>;

/**
 * Why a session failed, in three categories (Effect's `Fail`, `Die` and `Interrupt`):
 * - `error`: the session's work failed — its body threw, its commit conflicted or was invalid,
 *   it went over a budget or a limit, or the store refused its commit;
 * - `defect`: a bug in Cohort or in its store (a store whose `append` threw), not in the session;
 * - `interruption`: the session was stopped from outside its work — `s.abort`, a cancellation,
 *   a timeout, or its wall-clock budget running out.
 */
export const FailureCategorySchema = z.enum(['error', 'defect', 'interruption']);
/** See {@link FailureCategorySchema}. */
export type FailureCategory = z.infer<typeof FailureCategorySchema>;

/** One conflicting op of a rejected or rebased commit. */
export const ConflictSchema = z.object({
  opIndex: z.number().int(),
  type: z.enum(['ADD', 'UPDATE', 'TAG', 'REMOVE']),
  skillId: z.string(),
  reason: z.enum(['content_changed', 'removed', 'id_exists']),
  revision: z.number().int(),
});

/**
 * The one structured value every failure becomes: never a thrown exception across an actor
 * boundary, never a prose string, never a partial write.
 */
export const SessionFailureSchema = z.object({
  kind: FailureKindSchema,
  category: FailureCategorySchema,
  sessionId: SessionIdSchema,
  path: z.array(SessionIdSchema),
  message: z.string(),
  error: ErrorInfoSchema.optional(),
  conflicts: z.array(ConflictSchema).optional(),
  discarded: z.object({ ops: z.number().int().nonnegative(), descendants: z.number().int().nonnegative() }),
  attempt: z.number().int().positive(),
  at: z.number(),
});
/** See {@link SessionFailureSchema}. */
export type SessionFailure = z.infer<typeof SessionFailureSchema>;

/**
 * Whether the session was stopped from outside its work: aborted, cancelled, timed out, or out
 * of wall-clock budget. Nothing went wrong in it; usually nothing to report.
 *
 * @example
 * const outcome = await rt.run(async (s) => s.abort('not needed'));
 * outcome.status === 'failed' && isInterruption(outcome.failure); // true
 */
export function isInterruption(failure: Pick<SessionFailure, 'category'>): boolean {
  return failure.category === 'interruption';
}

/**
 * Whether the failure is a bug in Cohort or in its store rather than in the session: report
 * it (the runtime also emits a `runtime.defect` event for its own).
 *
 * @example
 * if (outcome.status === 'failed' && isDefect(outcome.failure)) reportBug(outcome.failure.error);
 */
export function isDefect(failure: Pick<SessionFailure, 'category'>): boolean {
  return failure.category === 'defect';
}

/**
 * Whether the session's own work failed: its body threw, its commit conflicted or was
 * invalid, it broke a budget or a limit, or the store refused its commit. The one category a
 * retry on a fresh draft may cure.
 *
 * @example
 * const outcome = await rt.run(async () => { throw new Error('boom'); });
 * outcome.status === 'failed' && isError(outcome.failure); // true
 */
export function isError(failure: Pick<SessionFailure, 'category'>): boolean {
  return failure.category === 'error';
}
