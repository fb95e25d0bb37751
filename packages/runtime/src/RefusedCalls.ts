import type { SkillToolName } from './tools.ts';

/** One tool call a session's tools answered with `{ error }`: which tool, and the error the model got. */
export interface RefusedCall {
  readonly tool: SkillToolName;
  readonly error: string;
}

/**
 * The tool calls of one session that were refused (answered `{ error }`: bad arguments, a
 * missing skill, a broken limit, no id lease): how many, and the first
 * {@link REFUSED_CALLS_KEPT} of them. A committed outcome carries it: a session whose every
 * write was refused still commits, empty, unless it was spawned with `onRefusedCall: 'fail'`.
 */
export interface RefusedCalls {
  readonly count: number;
  readonly calls: readonly RefusedCall[];
}

/** How many refused calls an outcome lists (it counts them all): a runaway loop must not grow it. */
export const REFUSED_CALLS_KEPT = 10;

/** No refused call. */
export const NO_REFUSED_CALLS: RefusedCalls = Object.freeze({ count: 0, calls: Object.freeze([]) });

/**
 * `refused` with one more call.
 *
 * @example
 * withRefusedCall(NO_REFUSED_CALLS, { tool: 'read_skill', error: 'skill not found: x' }).count; // 1
 */
export function withRefusedCall(refused: RefusedCalls, call: RefusedCall): RefusedCalls {
  const calls = refused.calls.length < REFUSED_CALLS_KEPT ? [...refused.calls, call] : refused.calls;
  return { count: refused.count + 1, calls };
}
