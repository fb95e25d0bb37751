import { z } from 'zod';

/**
 * A session's id, unique within its runtime (`s1`, `s2`, …). Branded, so that a session id is
 * never passed where a skill id is expected; any string is accepted where a caller looks one up.
 */
export const SessionIdSchema = z.string().brand<'SessionId'>();
/** See {@link SessionIdSchema}. */
export type SessionId = z.infer<typeof SessionIdSchema>;

/**
 * The id of the runtime's `n`-th session.
 *
 * @example
 * formatSessionId(3); // 's3'
 */
export function formatSessionId(n: number): SessionId {
  return `s${n}` as SessionId;
}
