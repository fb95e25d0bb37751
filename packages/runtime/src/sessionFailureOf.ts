import type { FailureSeed } from './FailureSeed.ts';
import { bodyThrew, defect, failureSeed } from './FailureSeed.ts';
import type { SessionContext, SessionMachineEvent } from './sessionMachine.ts';

/** The failure a session machine's event brings, built here so that each kind's message and category have one home. */
export function failureOf(context: SessionContext, event: SessionMachineEvent): FailureSeed | null {
  switch (event.type) {
    case 'BODY_FAILED':
      return bodyThrew(event.error);
    case 'OVER_BUDGET':
      return failureSeed('budget_exhausted', event.message);
    case 'TOOL_REFUSED':
      return failureSeed('tool_refused', event.message);
    case 'TIMEOUT':
      return failureSeed('timeout', `timed out after ${context.rules.timeoutMs} ms`);
    case 'WALL_CLOCK':
      return failureSeed('budget_exhausted', `wall-clock budget of ${context.rules.wallClockMs} ms exhausted`, {
        category: 'interruption',
      });
    case 'ABORT':
      return failureSeed('aborted', event.reason);
    case 'CANCEL':
      return failureSeed('cancelled', event.reason);
    case 'DEFECT':
      return { ...defect(event.message), ...(event.error ? { error: event.error } : {}) };
    case 'REJECTED':
    case 'FAILED_ELSEWHERE':
      return event.failure;
    default:
      return context.failure;
  }
}
