import type { Skillbook } from '@cohort/skillbook';
import type { Clock } from '../Clock.ts';
import type { Commit } from '../Commit.ts';
import type { ConflictPolicy } from '../ConflictPolicy.ts';
import { Draft } from '../Draft.ts';
import type { DraftOwner } from '../Draft.ts';
import type { SessionNode } from './SessionNode.ts';
import type { Verdict } from './Verdict.ts';
import { refusalVerdict } from './Verdict.ts';

/**
 * The three places where isolation is decided: which draft a session writes to, how a
 * child's commit enters its parent's draft, and what becomes of a failed session's draft.
 * The runtime runs on {@link faithfulSeams}; `@cohort/runtime/testing` swaps one for a
 * deliberately broken variant, so the simulation can prove its checker catches the break.
 */
export interface Seams {
  /** The draft a new session writes to, on `start` (its parent's draft's book, or the root book). */
  draftFor(parent: SessionNode | null, start: Skillbook, owner: DraftOwner): Draft;
  /** Merges a child's commit into its parent session's draft; calls `done` once with the verdict. */
  mergeIntoSession(owner: SessionNode, commit: Commit, policy: ConflictPolicy, clock: Clock, done: (verdict: Verdict) => void): void;
  /** A failed session's draft is about to be dropped, with everything in it. */
  dropFailed(node: SessionNode): void;
}

/**
 * Merges a child's commit into its parent's draft, all of it or nothing, as one contiguous
 * block of the parent's audit.
 */
export function mergeIntoDraft(owner: SessionNode, commit: Commit, policy: ConflictPolicy): Verdict {
  const result = owner.draft.merge(commit, policy);
  return result.ok ? { ok: true, revision: owner.draft.revision, merge: result } : refusalVerdict(result);
}

/** Isolation as designed: a draft of its own per session, atomic merges, failed drafts dropped whole. */
export const faithfulSeams: Seams = {
  draftFor: (_parent, start, owner) => new Draft(start, owner),
  mergeIntoSession: (owner, commit, policy, _clock, done) => done(mergeIntoDraft(owner, commit, policy)),
  dropFailed: () => undefined,
};
