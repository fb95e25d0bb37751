import type { AuditEntry } from '@cohort/runtime';
import type { EpochRecord } from '../EpochRecord.ts';
import { coalesce } from '../referenceModel.ts';
import type { Reference, Segment } from '../referenceModel.ts';
import type { InvariantResult } from '../SimReport.ts';
import type { CheckInput } from './verdict.ts';
import { epochsOf, inEpoch, opKey, verdict } from './verdict.ts';

/**
 * Invariant 3 — audit blocks: every audit entry is attributed to one real session path (the
 * path the session was spawned with) and holds exactly that session's own ops; each root
 * merge lands as one contiguous block at one revision, in merge order; and the audit, entry
 * by entry, is the reference model's sequence of segments.
 *
 * @example
 * checkAuditBlocks({ observations, references }).ok;
 */
export function checkAuditBlocks(input: CheckInput): InvariantResult {
  const violations: string[] = [];
  let entries = 0;
  for (const { record, ref } of epochsOf(input)) {
    const audit = record.final?.audit;
    if (!audit || !ref) continue;
    entries += audit.length;
    const say = (m: string): number => violations.push(inEpoch(input, record, m));
    checkAttribution(record, audit, say);
    checkBlocks(ref, audit, say);
    checkSegments(ref, audit, say);
  }
  return verdict(
    3,
    violations,
    `${entries} audit entries: each one session's own ops under its real path; one contiguous block per root merge, in merge order`,
  );
}

function checkAttribution(record: EpochRecord, audit: readonly AuditEntry[], say: (m: string) => void): void {
  for (const entry of audit) {
    const spawned = record.sessions.get(entry.sessionId)?.path;
    if (entry.path[entry.path.length - 1] !== entry.sessionId)
      say(`audit entry of ${entry.sessionId} has path ${entry.path.join('/')}, which does not end in it`);
    else if (!spawned || spawned.join('/') !== entry.path.join('/'))
      say(`audit entry of ${entry.sessionId} claims path ${entry.path.join('/')}; it was spawned at ${spawned?.join('/') ?? '(never)'}`);
  }
}

/** Groups the audit by root session: each root merge must be one run of entries, at its revision. */
function checkBlocks(ref: Reference, audit: readonly AuditEntry[], say: (m: string) => void): void {
  const groups: { root: string; revisions: Set<number> }[] = [];
  for (const entry of audit) {
    const root = entry.path[0] ?? entry.sessionId;
    const last = groups[groups.length - 1];
    if (last && last.root === root) last.revisions.add(entry.revision);
    else groups.push({ root, revisions: new Set([entry.revision]) });
  }
  const expected = ref.blocks.filter((b) => b.segments.some((s) => s.ops.length > 0));
  const seen = new Set<string>();
  for (const [i, group] of groups.entries()) {
    if (seen.has(group.root))
      say(`the work of root ${group.root} is split into more than one block of the audit (interleaved with another merge)`);
    seen.add(group.root);
    const block = expected[i];
    if (!block || block.rootId !== group.root)
      say(`audit block ${i + 1} belongs to ${group.root}; merge order says ${block?.rootId ?? 'nothing'}`);
    else if (group.revisions.size !== 1 || !group.revisions.has(block.revision)) {
      say(
        `the block of ${group.root} spans revisions ${[...group.revisions].join(', ')}; its merge was acknowledged at revision ${block.revision}`,
      );
    }
  }
  if (groups.length < expected.length) say(`the audit has ${groups.length} blocks; ${expected.length} root merges carried ops`);
}

function checkSegments(ref: Reference, audit: readonly AuditEntry[], say: (m: string) => void): void {
  const expected = coalesce(ref.blocks.flatMap((b) => b.segments));
  const actual = coalesce(audit.map((e): Segment => ({ sessionId: e.sessionId, ops: e.ops })));
  const n = Math.max(expected.length, actual.length);
  for (let i = 0; i < n; i++) {
    const e = expected[i];
    const a = actual[i];
    if (e && a && e.sessionId === a.sessionId && sameOps(e, a)) continue;
    say(`audit segment ${i + 1} is ${describe(a)}; the reference model expects ${describe(e)}`);
    return;
  }
}

function sameOps(a: Segment, b: Segment): boolean {
  return a.ops.length === b.ops.length && a.ops.every((op, i) => opKey(op) === opKey(b.ops[i]));
}

function describe(s: Segment | undefined): string {
  if (!s) return 'absent';
  const ops = s.ops
    .slice(0, 3)
    .map((op) => `${op.type} ${op.skill_id}`)
    .join(', ');
  return `${s.ops.length} ops by ${s.sessionId} (${ops}${s.ops.length > 3 ? ', …' : ''})`;
}
