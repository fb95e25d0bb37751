import type { AuditEntry } from '@cohort/runtime';
import type { Skillbook } from '@cohort/skillbook';
import { replayAll, upToLeases } from '../referenceModel.ts';
import { replayWithTakenIn, takenInDuring } from '../external/externalChanges.ts';
import type { TakenIn } from '../external/externalChanges.ts';
import type { InvariantResult } from '../SimReport.ts';
import type { CheckInput } from './verdict.ts';
import { epochsOf, inEpoch, verdict } from './verdict.ts';

/**
 * Invariant 1 — serialisability: the runtime's final book equals the reference model's, the
 * serial application in merge order of exactly the committed sessions' ops (and of what the
 * store took in from another program, where one saved the document); and replaying the
 * runtime's own audit on the initial book gives that same book. For several runtimes on one
 * store: the store's book equals the serial application of every runtime's committed work in
 * the store's revision order, and so does replaying the union of their audits in that order.
 *
 * @example
 * checkSerialisable({ observations, references }).ok;
 */
export function checkSerialisable(input: CheckInput): InvariantResult {
  const violations: string[] = [];
  let merges = 0;
  let ops = 0;
  const w = input.observations.writers;
  for (const [i, { record, ref }] of epochsOf(input).entries()) {
    const final = record.final;
    if (!final || !ref) {
      violations.push(inEpoch(input, record, 'the epoch did not finish, so there is no final book to check'));
      continue;
    }
    merges += ref.blocks.length;
    ops += ref.blocks.reduce((n, b) => n + b.segments.reduce((m, s) => m + s.ops.length, 0), 0);
    for (const error of ref.errors) violations.push(inEpoch(input, record, error));
    // a writer among several: its book is the store's, checked once for them all below
    if (w !== null && i >= w.first && i < w.first + w.count) continue;
    const say = (m: string): number => violations.push(inEpoch(input, record, m));
    checkBook(
      { expected: ref.book, book: final.book, initial: record.initial, audit: final.audit, takenIn: takenInDuring(input.observations, i) },
      say,
    );
  }
  if (w) {
    const records = input.observations.epochs.slice(w.first, w.first + w.count);
    const ref = input.references[w.first];
    // the union of the audits, in the store's order (a revision holds one writer's entries)
    const audit = records.flatMap((r) => r.final?.audit ?? []).sort((a, b) => a.revision - b.revision);
    const say = (m: string): number => violations.push(`the writers' store: ${m}`);
    if (!w.book || !ref) say('it could not be read after the writers closed');
    else checkBook({ expected: ref.book, book: w.book, initial: w.initial, audit, takenIn: [] }, say);
  }
  return verdict(
    1,
    violations,
    `${merges} root merges, ${ops} committed ops: the book equals their serial replay, and the audit replays to it`,
  );
}

/** A book against its reference, and against the replay of its audit (with what was taken in from another program). */
interface BookCheck {
  readonly expected: Skillbook;
  readonly book: Skillbook;
  readonly initial: Skillbook;
  readonly audit: readonly AuditEntry[];
  readonly takenIn: readonly TakenIn[];
}

function checkBook(c: BookCheck, say: (m: string) => void): void {
  const difference = describeDifference(c.expected, c.book);
  if (difference) say(`the book differs from the serial replay of the committed sessions' ops: ${difference}`);
  const replayed =
    c.takenIn.length === 0
      ? replayAll(
          c.initial,
          c.audit.map((e) => e.ops),
        )
      : replayWithTakenIn(c.initial, c.audit, c.takenIn);
  if (!replayed.ok) say(`the audit does not replay on the initial book: ${replayed.message}`);
  else if (upToLeases(replayed.book, c.book).toJSON() !== c.book.toJSON()) {
    say(`replaying the audit does not give the book: ${describeDifference(replayed.book, c.book) ?? 'the documents differ'}`);
  }
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
