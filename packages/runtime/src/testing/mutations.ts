import type { AppliedOp } from '@cohort/skillbook';
import { entryOps } from '../AuditEntry.ts';
import type { Commit } from '../Commit.ts';
import type { Seams } from '../internal/Seams.ts';
import { faithfulSeams, mergeIntoDraft } from '../internal/Seams.ts';
import { refused } from '../internal/Verdict.ts';
import { failureSeed } from '../FailureSeed.ts';
import type { SessionNode } from '../internal/SessionNode.ts';
import type { LeaseSource } from '../internal/SkillIds.ts';

/**
 * Deliberately broken variants of the runtime, for proving that the simulation's invariant
 * checker can fail (mutation testing). Never use one outside a test.
 *
 * - `shared-draft`: a child writes straight into its parent's draft (ACE's shallow copy).
 * - `interleaved-merge`: a supervisor applies half of a commit, lets other work in, then the rest.
 * - `keep-failed-writes`: a failed session's own writes are merged into its parent anyway.
 * - `unleased-ids`: ids come from the runtime's own counter, not from leases, and the store
 *   renumbers the ones another writer took (what a session was told is then someone else's).
 * - `flat-audit`: a root commit persists its ops as one block of the root session (who wrote
 *   what is lost on disk).
 */
export type RuntimeMutation = 'shared-draft' | 'interleaved-merge' | 'keep-failed-writes' | 'unleased-ids' | 'flat-audit';

/** Every {@link RuntimeMutation}. */
export const RUNTIME_MUTATIONS: readonly RuntimeMutation[] = [
  'shared-draft',
  'interleaved-merge',
  'keep-failed-writes',
  'unleased-ids',
  'flat-audit',
];

/** The runtime's seams with one of them broken as `mutation` says. */
export function mutantSeams(mutation: RuntimeMutation): Seams {
  switch (mutation) {
    case 'shared-draft':
      return { ...faithfulSeams, draftFor: (parent, start, owner) => parent?.draft ?? faithfulSeams.draftFor(null, start, owner) };
    case 'interleaved-merge':
      return { ...faithfulSeams, mergeIntoSession: mergeInterleaved };
    case 'keep-failed-writes':
      return { ...faithfulSeams, dropFailed: keepFailedWrites };
    case 'unleased-ids':
      return { ...faithfulSeams, ids: (_store, initial) => ({ source: ownCounter(initial.nextId), allocation: 'unleased' }) };
    case 'flat-audit':
      return {
        ...faithfulSeams,
        persistedBlocks: (commit, entries, at) => [{ sessionId: commit.sessionId, path: commit.path, ops: entryOps(entries), at }],
      };
  }
}

/** Leases from a counter of the runtime's own, starting at the book's: two runtimes hand out the same numbers. */
function ownCounter(start: number): LeaseSource {
  let next = start + 1;
  return {
    leaseIds: async (count) => {
      const lease = { from: next, to: next + count };
      next = lease.to;
      return { ok: true, lease };
    },
  };
}

/** Half of the commit now, the rest after other work has had its turn. */
const mergeInterleaved: Seams['mergeIntoSession'] = (owner, commit, policy, clock, done) => {
  const [head] = commit.entries;
  if (!head) {
    done(mergeIntoDraft(owner, commit, policy));
    return;
  }
  const ops = commit.entries.flatMap((e) => e.ops);
  const half = Math.ceil(ops.length / 2);
  const part = (slice: AppliedOp[]): Commit => ({ ...commit, entries: [{ ...head, ops: slice }] });
  const first = owner.draft.merge(part(ops.slice(0, half)), 'last-writer-wins');
  clock.setTimeout(() => {
    if (isLive(owner) && half < ops.length) owner.draft.merge(part(ops.slice(half)), 'last-writer-wins');
    done(
      first.ok
        ? { ok: true, revision: owner.draft.book.revision, merge: { ...first, ops } }
        : refused(failureSeed('invalid_commit', first.message)),
    );
  }, 0);
};

/** The failed session's draft goes into its parent's after all. */
function keepFailedWrites(node: SessionNode): void {
  if (node.parent && isLive(node.parent)) node.parent.draft.merge(node.draft.toCommit(undefined), 'last-writer-wins');
}

function isLive(node: SessionNode): boolean {
  return node.state === 'running' || node.state === 'draining';
}
