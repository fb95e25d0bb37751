import type { InvariantResult } from '../SimReport.ts';
import type { CheckInput } from './verdict.ts';
import { epochsOf, inEpoch, verdict } from './verdict.ts';

/**
 * Invariant 6 — no unhandled error escapes: no unhandled rejection or uncaught exception
 * during the run, no `rt.run` or spawn that rejected, and no `runtime.defect` event.
 *
 * @example
 * checkNoUnhandledErrors({ observations, references }).ok;
 */
export function checkNoUnhandledErrors(input: CheckInput): InvariantResult {
  const violations: string[] = [];
  let events = 0;
  for (const message of input.unhandled) violations.push(message);
  for (const { record } of epochsOf(input)) {
    for (const escaped of record.escaped) violations.push(inEpoch(input, record, escaped));
    for (const { event } of record.events) {
      events += 1;
      if (event.type === 'runtime.defect')
        violations.push(inEpoch(input, record, `runtime.defect: ${event.error.name}: ${event.error.message}`));
    }
  }
  return verdict(6, violations, `${events} events, no defect; no unhandled rejection, uncaught exception or rejected run`);
}
