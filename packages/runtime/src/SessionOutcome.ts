import type { Conflict } from '@cohort/skillbook';
import type { SessionFailure } from './SessionFailure.ts';

/**
 * How a session ended, as its parent (or `rt.run`'s caller) receives it. `committed`: the
 * body's output unchanged, the parent's (draft) revision after the merge, the skill ids the
 * commit added, and, under `rebase` or a resolver, the ops that were dropped.
 */
export type SessionOutcome<T = unknown> =
  | {
      readonly status: 'committed';
      readonly sessionId: string;
      readonly path: readonly string[];
      readonly output: T;
      readonly revision: number;
      readonly added: readonly string[];
      readonly dropped: readonly Conflict[];
      readonly attempt: number;
    }
  | { readonly status: 'failed'; readonly sessionId: string; readonly path: readonly string[]; readonly failure: SessionFailure };
