import type { EpochRecord, SessionRecord } from '../EpochRecord.ts';
import type { InvariantResult } from '../SimReport.ts';
import type { CheckInput } from './verdict.ts';
import { epochsOf, inEpoch, opKey, verdict } from './verdict.ts';

/**
 * Invariant 2 — failed work is discarded: no op of a failed session, or of any of its
 * descendants, is in the book or the audit. Checked three ways: no audit entry's session path
 * passes through a failed session; no skill a failed (or failed-under) session added is in the
 * book; no op only such sessions wrote appears in the audit.
 *
 * @example
 * checkFailedWorkDiscarded({ observations, references }).ok;
 */
export function checkFailedWorkDiscarded(input: CheckInput): InvariantResult {
  const violations: string[] = [];
  let failed = 0;
  let discardedOps = 0;
  for (const { record, ref } of epochsOf(input)) {
    const final = record.final;
    if (!final) continue;
    const failedIds = failedSessions(record);
    failed += failedIds.size;
    const lost = [...record.sessions.values()].filter((s) => s.path.some((p) => failedIds.has(p)));
    for (const entry of final.audit) {
      const culprit = entry.path.find((p) => failedIds.has(p));
      if (culprit)
        violations.push(
          inEpoch(
            input,
            record,
            `audit entry at revision ${entry.revision} by ${entry.path.join('/')} carries work of failed session ${culprit}`,
          ),
        );
    }
    // another program may give an id a failed session had allocated to a skill of its own (it never saw it): that one is not the failed work
    const external = input.observations.external ? addedAs(lost) : null;
    for (const s of lost) {
      for (const id of s.allocated) {
        const there = final.book.get(id);
        const same = !external || (there && external.get(id)?.some((a) => a.at === there.created_at && a.issue === there.issue));
        if (there && same)
          violations.push(inEpoch(input, record, `${id}, added by ${s.path.join('/')} (failed or under a failed session), is in the book`));
      }
    }
    const committed = new Set((ref?.blocks ?? []).flatMap((b) => b.segments.flatMap((seg) => seg.ops.map(opKey))));
    const lostOps = new Map<string, string>();
    for (const s of lost) {
      for (const item of s.log)
        if ('own' in item) for (const op of item.own) if (!committed.has(opKey(op))) lostOps.set(opKey(op), s.path.join('/'));
    }
    discardedOps += lostOps.size;
    for (const entry of final.audit) {
      for (const op of entry.ops) {
        const by = lostOps.get(opKey(op));
        if (by)
          violations.push(
            inEpoch(input, record, `the audit holds ${op.type} ${op.skill_id}, written only by ${by} (failed or under a failed session)`),
          );
      }
    }
  }
  return verdict(
    2,
    violations,
    `${failed} failed sessions, ${discardedOps} of their (and their descendants') ops: none in the book or the audit`,
  );
}

/** Sessions that ended with a failure. */
export function failedSessions(record: EpochRecord): Set<string> {
  const out = new Set<string>();
  for (const s of record.sessions.values()) if (s.terminals.some((t) => t.type === 'failed')) out.add(s.id);
  return out;
}

/** The ADDs of these sessions by id: when and with which issue each was made. */
function addedAs(sessions: readonly SessionRecord[]): Map<string, { at: string; issue: string }[]> {
  const out = new Map<string, { at: string; issue: string }[]>();
  for (const s of sessions) {
    for (const item of s.log) {
      if (!('own' in item)) continue;
      for (const op of item.own)
        if (op.type === 'ADD') out.set(op.skill_id, [...(out.get(op.skill_id) ?? []), { at: op.at, issue: op.issue ?? '' }]);
    }
  }
  return out;
}
