import type { FailureSeed } from '../FailureSeed.ts';
import type { AppliedOp } from '@cohort/skillbook';
import { DISCARDED_OPS_KEPT } from '../RuntimeEvent.ts';
import type { RuntimeEvent, SessionEvent } from '../RuntimeEvent.ts';

/** What a session was charged (see `charged` on `session.merged` and `session.failed`). */
export interface Charged {
  readonly tokens: number;
  readonly requests: number;
}
import type { SessionFailure } from '../SessionFailure.ts';
import type { SessionId } from '../SessionId.ts';
import type { SessionOutcome } from '../SessionOutcome.ts';
import type { MergedInfo } from '../sessionMachine.ts';
import type { SessionNode } from './SessionNode.ts';

/** The outcome of a session whose commit was merged. */
export function committedOutcome(node: SessionNode, merged: MergedInfo): SessionOutcome {
  return {
    status: 'committed',
    sessionId: node.id,
    path: node.path,
    output: node.output,
    revision: merged.revision,
    added: merged.added,
    dropped: merged.dropped,
    refused: node.refused,
    attempt: node.attempt,
  };
}

/**
 * The failure value of a session that failed: the seed, plus what went with its draft — its
 * own ops and its merged children's, the sessions merged into it and those cancelled with it.
 */
export function sessionFailure(node: SessionNode, seed: FailureSeed, cancelled: number, at: number): SessionFailure {
  return {
    kind: seed.kind,
    category: seed.category,
    sessionId: node.id,
    path: [...node.path],
    message: seed.message,
    ...(seed.error ? { error: seed.error } : {}),
    ...(seed.conflicts ? { conflicts: [...seed.conflicts] } : {}),
    discarded: { ops: node.draft.opCount, descendants: node.draft.descendantCount + cancelled },
    attempt: node.attempt,
    at,
  };
}

/** The failure value of a spawn refused before its session existed (nothing to discard). */
export function refusalFailure(id: SessionId, path: readonly SessionId[], seed: FailureSeed, attempt: number, at: number): SessionFailure {
  return {
    kind: seed.kind,
    category: seed.category,
    sessionId: id,
    path: [...path],
    message: seed.message,
    ...(seed.error ? { error: seed.error } : {}),
    discarded: { ops: 0, descendants: 0 },
    attempt,
    at,
  };
}

/** A failed outcome. */
export function failedOutcome(failure: SessionFailure): SessionOutcome {
  return { status: 'failed', sessionId: failure.sessionId, path: failure.path, failure };
}

/** `session.spawned`, for a session or a refused spawn (its parent is the path's second-to-last id). */
export function spawnedEvent(
  sessionId: SessionId,
  path: readonly SessionId[],
  at: number,
  attempt: number,
  name: string | undefined,
): RuntimeEvent {
  return {
    type: 'session.spawned',
    sessionId,
    path: [...path],
    at,
    parentId: path.length > 1 ? (path[path.length - 2] ?? null) : null,
    depth: path.length - 1,
    attempt,
    ...(name !== undefined ? { name } : {}),
  };
}

type FailedEvent = Extract<SessionEvent, { type: 'session.failed' }>;

/**
 * What a failure emits: `session.cancelled` for a cancellation, then `session.failed` with what
 * the session was charged and the first of the ops it dropped.
 */
export function failureEvents(failure: SessionFailure, charged: Charged, dropped: readonly AppliedOp[] = []): RuntimeEvent[] {
  const base = { sessionId: failure.sessionId, path: failure.path, at: failure.at };
  const discardedOps = dropped.length > 0 ? { discardedOps: dropped.slice(0, DISCARDED_OPS_KEPT) as FailedEvent['discardedOps'] } : {};
  const failed: RuntimeEvent = { type: 'session.failed', ...base, failure, charged, ...discardedOps };
  return failure.kind === 'cancelled' ? [{ type: 'session.cancelled', ...base, reason: failure.message }, failed] : [failed];
}

/** `session.committed`: the session sent its commit to its parent's supervisor. */
export function committedEvent(node: SessionNode, at: number, baseRevision: number): RuntimeEvent {
  return { type: 'session.committed', sessionId: node.id, path: [...node.path], at, ops: node.draft.opCount, baseRevision };
}

/** `session.merged` or, for a conflict, `session.rejected`: what the supervisor of `into` answered; nothing otherwise. */
export function verdictEvent(
  node: SessionNode,
  into: string,
  at: number,
  merged: MergedInfo | null,
  failure: FailureSeed | null,
): RuntimeEvent | null {
  const base = { sessionId: node.id, path: [...node.path], at, into };
  if (merged)
    return {
      type: 'session.merged',
      ...base,
      revision: merged.revision,
      ops: merged.ops,
      dropped: [...merged.dropped],
      charged: node.budget.spent(),
    };
  if (failure?.kind === 'conflict') return { type: 'session.rejected', ...base, conflicts: [...(failure.conflicts ?? [])] };
  return null;
}
