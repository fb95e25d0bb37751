import type { Skillbook } from '@cohort/skillbook';
import { replayAll, upToLeases } from '../referenceModel.ts';
import type { InvariantResult } from '../SimReport.ts';
import type { CheckInput } from './verdict.ts';
import { epochsOf, inEpoch, verdict } from './verdict.ts';

/**
 * Invariant 1 — serialisability: the runtime's final book equals the reference model's, the
 * serial application in merge order of exactly the committed sessions' ops; and replaying the
 * runtime's own audit on the initial book gives that same book.
 *
 * @example
 * checkSerialisable({ observations, references }).ok;
 */
export function checkSerialisable(input: CheckInput): InvariantResult {
  const violations: string[] = [];
  let merges = 0;
  let ops = 0;
  for (const { record, ref } of epochsOf(input)) {
    const final = record.final;
    if (!final || !ref) {
      violations.push(inEpoch(input, record, 'the epoch did not finish, so there is no final book to check'));
      continue;
    }
    merges += ref.blocks.length;
    ops += ref.blocks.reduce((n, b) => n + b.segments.reduce((m, s) => m + s.ops.length, 0), 0);
    for (const error of ref.errors) violations.push(inEpoch(input, record, error));
    const difference = describeDifference(ref.book, final.book);
    if (difference) violations.push(inEpoch(input, record, `the book differs from the serial replay of the committed sessions' ops: ${difference}`));
    const audit = replayAll(record.initial, final.audit.map((e) => e.ops));
    if (!audit.ok) violations.push(inEpoch(input, record, `the audit does not replay on the initial book: ${audit.message}`));
    else if (upToLeases(audit.book, final.book).toJSON() !== final.book.toJSON()) {
      violations.push(inEpoch(input, record, `replaying the audit does not give the book: ${describeDifference(audit.book, final.book) ?? 'the documents differ'}`));
    }
  }
  return verdict(1, violations, `${merges} root merges, ${ops} committed ops: the book equals their serial replay, and the audit replays to it`);
}

/**
 * The first differences between two books, by skill, or null when their documents are equal
 * (up to the id counter the store raises past its leases: see {@link upToLeases}).
 */
export function describeDifference(expected: Skillbook, actual: Skillbook): string | null {
  if (upToLeases(expected, actual).toJSON() === actual.toJSON()) return null;
  const out: string[] = [];
  const ids = new Set([...[...expected.skills()].map((s) => s.id), ...[...actual.skills()].map((s) => s.id)]);
  for (const id of ids) {
    const e = expected.get(id);
    const a = actual.get(id);
    if (!e) out.push(`${id} should not be there`);
    else if (!a) out.push(`${id} is missing`);
    else if (JSON.stringify(e) !== JSON.stringify(a)) out.push(`${id} differs (${differingFields(e, a).join(', ')})`);
    if (out.length >= 4) break;
  }
  return out.length > 0 ? out.join('; ') : 'same skills, but the documents differ (order or sections)';
}

function differingFields(e: object, a: object): string[] {
  const ea = e as Record<string, unknown>;
  const aa = a as Record<string, unknown>;
  return [...new Set([...Object.keys(ea), ...Object.keys(aa)])].filter((k) => JSON.stringify(ea[k]) !== JSON.stringify(aa[k]));
}
