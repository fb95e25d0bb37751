import type { Conflict, SkillId } from '@cohort/skillbook';
import type { RefusedCalls } from './RefusedCalls.ts';
import type { SessionFailure } from './SessionFailure.ts';
import type { SessionId } from './SessionId.ts';

/**
 * How a session ended, as its parent (or `rt.run`'s caller) receives it. `committed`: the
 * body's output unchanged, the parent's (draft) revision after the merge, the skill ids the
 * commit added, under `rebase` or a resolver the ops that were dropped, and the session's tool
 * calls that were refused (answered `{ error }`: none of them wrote anything).
 */
export type SessionOutcome<T = unknown> =
  | {
      readonly status: 'committed';
      readonly sessionId: SessionId;
      readonly path: readonly SessionId[];
      readonly output: T;
      readonly revision: number;
      readonly added: readonly SkillId[];
      readonly dropped: readonly Conflict[];
      readonly refused: RefusedCalls;
      readonly attempt: number;
    }
  | { readonly status: 'failed'; readonly sessionId: SessionId; readonly path: readonly SessionId[]; readonly failure: SessionFailure };
