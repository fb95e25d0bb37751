import type { Skillbook } from '@cohort/skillbook';
import type { AuditBlock, Store } from '@cohort/store';
import type { AuditEntry } from '../AuditEntry.ts';
import type { Clock } from '../Clock.ts';
import type { Commit } from '../Commit.ts';
import type { ConflictPolicy } from '../ConflictPolicy.ts';
import { Draft } from '../Draft.ts';
import type { DraftOwner } from '../Draft.ts';
import type { SessionNode } from './SessionNode.ts';
import type { LeaseSource } from './SkillIds.ts';
import type { Verdict } from './Verdict.ts';
import { refusalVerdict } from './Verdict.ts';

/** Where a runtime's skill ids come from, and what its root commits say of them. */
export interface IdsSeam {
  readonly source: LeaseSource;
  readonly allocation: 'leased' | 'unleased';
}

/**
 * The places where isolation and the truth of the record are decided: which draft a session
 * writes to, how a child's commit enters its parent's draft, what becomes of a failed session's
 * draft — and, between writers, where ids come from and what the root persists. The runtime runs
 * on {@link faithfulSeams}; `@cohort/runtime/testing` swaps one for a deliberately broken
 * variant, so the simulation can prove its checker catches the break.
 */
export interface Seams {
  /** The draft a new session writes to, on `start` (its parent's draft's book, or the root book). */
  draftFor(parent: SessionNode | null, start: Skillbook, owner: DraftOwner): Draft;
  /** Merges a child's commit into its parent session's draft; calls `done` once with the verdict. */
  mergeIntoSession(owner: SessionNode, commit: Commit, policy: ConflictPolicy, clock: Clock, done: (verdict: Verdict) => void): void;
  /** A failed session's draft is about to be dropped, with everything in it. */
  dropFailed(node: SessionNode): void;
  /** The ids of a runtime on `store`, whose book starts as `initial`. */
  ids(store: Store, initial: Skillbook): IdsSeam;
  /** The audit blocks a root commit hands the store, one per session. */
  persistedBlocks(commit: Commit, entries: readonly AuditEntry[], at: number): AuditBlock[];
}

/** An entry as the store persists it: one session's block (its name when it has one). */
export function auditBlock(e: AuditEntry, at: number): AuditBlock {
  return e.name === undefined
    ? { sessionId: e.sessionId, path: e.path, ops: e.ops, at }
    : { sessionId: e.sessionId, path: e.path, name: e.name, ops: e.ops, at };
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
  // ids from the store's leases: final, whoever else writes
  ids: (store) => ({ source: store, allocation: 'leased' }),
  persistedBlocks: (_commit, entries, at) => entries.map((e) => auditBlock(e, at)),
};
