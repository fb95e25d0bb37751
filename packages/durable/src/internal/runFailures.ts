import type { SessionFailure, SessionOutcome } from '@cohort/runtime';
import { toErrorInfo } from '@cohort/runtime';
import { isDurableError } from '../DurableError.ts';
import type { UnitResult, UnitSpec } from '../UnitSpec.ts';
import { unitRuntimeId } from './UnitRun.ts';

/**
 * The outcome of a run whose workflow itself ended without its outcome: cancelled
 * (`durable.cancel`), or failed (the store unreachable past its retries, a defect, the system
 * database gone). `at` is when the workflow ended, so that asking again gives the same value.
 */
export function failedRun(id: string, kind: 'cancelled' | 'crashed', err: unknown, at = Date.now()): SessionOutcome {
  const sessionId = `run:${id}` as SessionFailure['sessionId'];
  const why = err instanceof Error ? err.message : String(err);
  // a store that cannot be reached is the run's failure to make its commit durable, not a bug
  const unavailable = isDurableError(err) && err.code === 'DURABLE_STORE_UNAVAILABLE';
  const failure: SessionFailure = {
    kind,
    category: kind === 'cancelled' ? 'interruption' : unavailable ? 'error' : 'defect',
    sessionId,
    path: [sessionId],
    message: kind === 'cancelled' ? `durable run ${id} was cancelled` : `durable run ${id} failed: ${why}`,
    error: toErrorInfo(err),
    discarded: { ops: 0, descendants: 0 },
    attempt: 1,
    at,
  };
  return { status: 'failed', sessionId, path: failure.path, failure };
}

/** Whether `err` is DBOS's word that a workflow (or one it awaited) was cancelled. */
export function isCancellation(err: unknown): boolean {
  const name = (err as { constructor?: { name?: string } } | null)?.constructor?.name;
  return name === 'DBOSWorkflowCancelledError' || name === 'DBOSAwaitedWorkflowCancelledError';
}

/** The result of a child unit that does not start because its run was cancelled. */
export function cancelledUnit(spec: UnitSpec): UnitResult {
  const sessionId = (spec.home?.sessionId ?? `${unitRuntimeId(spec.unitId)}.1`) as SessionFailure['sessionId'];
  return {
    status: 'failed',
    failure: {
      kind: 'cancelled',
      category: 'interruption',
      sessionId,
      path: (spec.home?.path ?? [sessionId]) as SessionFailure['path'],
      message: `child unit ${spec.unitId} did not start: its run was cancelled`,
      discarded: { ops: 0, descendants: 0 },
      attempt: 1,
      at: Date.now(),
    },
  };
}
