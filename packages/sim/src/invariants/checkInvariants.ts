import { INVARIANTS } from '../SimReport.ts';
import type { InvariantId, InvariantResult } from '../SimReport.ts';
import { checkAuditBlocks } from './checkAuditBlocks.ts';
import { checkFailedWorkDiscarded } from './checkFailedWorkDiscarded.ts';
import { checkIdsAsTold } from './checkIdsAsTold.ts';
import { checkNoUnhandledErrors } from './checkNoUnhandledErrors.ts';
import { checkPersistedAudit } from './checkPersistedAudit.ts';
import { checkRecovery } from './checkRecovery.ts';
import { checkSerialisable } from './checkSerialisable.ts';
import { checkSettlement } from './checkSettlement.ts';
import { checkUniqueIds } from './checkUniqueIds.ts';
import { checkExternalMerges } from './checkExternalMerges.ts';
import { checkDurableResume, checkRecordedOnce } from './checkDurable.ts';
import type { CheckInput } from './verdict.ts';

/**
 * Checks all twelve invariants of a run, in order. A check that itself throws (a bug in the
 * checker, or observations too broken to read) fails its invariant with the error, rather
 * than hiding the others.
 *
 * @example
 * const results = checkInvariants({ observations, references, unhandled: [] });
 * results.every((r) => r.ok);
 */
export function checkInvariants(input: CheckInput): InvariantResult[] {
  const checks = [
    checkSerialisable,
    checkFailedWorkDiscarded,
    checkAuditBlocks,
    checkSettlement,
    checkUniqueIds,
    checkNoUnhandledErrors,
    checkRecovery,
    checkExternalMerges,
    checkIdsAsTold,
    checkPersistedAudit,
    checkDurableResume,
    checkRecordedOnce,
  ] as const;
  return checks.map((check, i) => {
    try {
      return check(input);
    } catch (thrown) {
      const id = (i + 1) as InvariantId;
      return {
        id,
        name: INVARIANTS[id],
        ok: false,
        detail: [`the check itself threw: ${thrown instanceof Error ? thrown.message : String(thrown)}`],
      };
    }
  });
}
