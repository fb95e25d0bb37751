import type { RefusedCommit } from '@cohort/store';
import type { Commit } from '../Commit.ts';
import type { MergeRefusal } from '../mergeCommit.ts';

/**
 * What the store's conflict log records of a root commit the runtime refused itself for its
 * conflicts (with its own merges still on their way, which the store has not seen yet).
 *
 * @example
 * if (!result.ok && result.kind === 'conflict') store.recordRefused?.(refusedCommit(commit, result, clock.now()));
 */
export function refusedCommit(commit: Commit, refusal: Extract<MergeRefusal, { kind: 'conflict' }>, at: number): RefusedCommit {
  return {
    sessionId: commit.sessionId,
    path: commit.path,
    expectedRevision: commit.baseRevision,
    message: refusal.message,
    conflicts: refusal.conflicts,
    at,
  };
}
