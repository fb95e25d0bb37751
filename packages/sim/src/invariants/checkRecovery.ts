import type { Skillbook } from '@cohort/skillbook';
import { replayAll, upToLeases } from '../referenceModel.ts';
import type { ReopenRecord } from '../runScenario.ts';
import type { InvariantResult } from '../SimReport.ts';
import { describeDifference } from './checkSerialisable.ts';
import { checkReopenedTakingIn } from '../external/checkReopenedTakingIn.ts';
import type { CheckInput } from './verdict.ts';
import { verdict } from './verdict.ts';

/** Recovery copies are at most this deep (docs/internals/persistence.md, "Recovery copies"). */
export const RECOVERY_DEPTH_BOUND = 3;

/**
 * Invariant 7 — crash recovery: reopening the file store after a process crash (or a clean
 * close) yields exactly the acknowledged merges: the epoch's initial book with every
 * acknowledged append replayed in order, plus possibly a prefix of the appends that were in
 * doubt (in the store's hands when the crash hit: their bytes may have reached the disk
 * whole), and nothing else; after a clean close, exactly the runtime's final book. Where another
 * program saved the document too, its changes are in the book as well: see
 * {@link checkReopenedTakingIn}. Recovery copies stay within their bound: depth at most 3, at
 * most one fixed-point copy per writer.
 *
 * @example
 * checkRecovery({ observations, references }).ok;
 */
export function checkRecovery(input: CheckInput): InvariantResult {
  const reopens = input.observations.reopens;
  if (reopens.length === 0) return verdict(7, [], 'nothing durable to reopen (memory store)');
  const violations: string[] = [];
  let acknowledged = 0;
  for (const reopen of reopens) {
    const say = (m: string): number =>
      violations.push(`reopening after epoch ${reopen.afterEpoch}${reopen.crashed ? ' (crashed)' : ''}: ${m}`);
    acknowledged += reopen.appends.filter((a) => a.result === 'acknowledged').length;
    if (reopen.history) checkTakingIn(reopen, reopen.history, say);
    else checkReopened(reopen, say);
    checkCopies(reopen, say);
  }
  const crashes = reopens.filter((r) => r.crashed).length;
  return verdict(
    7,
    violations,
    `${reopens.length} reopenings (${crashes} after a crash) held exactly the acknowledged merges (${acknowledged} in all); recovery copies within bound`,
  );
}

/** With another program writing the document too: see {@link checkReopenedTakingIn}. */
function checkTakingIn(reopen: ReopenRecord, history: NonNullable<ReopenRecord['history']>, say: (m: string) => void): void {
  if (!reopen.reopened) say(`the store did not open: ${reopen.message ?? 'no reason given'}`);
  else checkReopenedTakingIn(reopen, history, say);
}

function checkReopened(reopen: ReopenRecord, say: (m: string) => void): void {
  if (!reopen.reopened) {
    say(`the store did not open: ${reopen.message ?? 'no reason given'}`);
    return;
  }
  const acked = reopen.appends.filter((a) => a.result === 'acknowledged').map((a) => a.ops);
  const inDoubt = reopen.appends
    .filter((a) => a.result !== 'acknowledged' && a.aliveAtSubmit && a.aliveAtResult !== true)
    .map((a) => a.ops);
  const base = replayAll(reopen.initial, acked);
  if (!base.ok) {
    say(`the acknowledged merges do not replay on the epoch's initial book: ${base.message}`);
    return;
  }
  const reopened = reopen.reopened;
  const actual = reopened.toJSON();
  if (!reopen.crashed && reopen.runtimeBook && upToLeases(reopen.runtimeBook, reopened).toJSON() !== actual) {
    say(
      `after a clean close, the reopened book differs from the runtime's: ${describeDifference(reopen.runtimeBook, reopen.reopened) ?? 'the documents differ'}`,
    );
  }
  let candidate: Skillbook = base.book;
  if (upToLeases(candidate, reopened).toJSON() === actual) return;
  for (const ops of inDoubt) {
    const next = replayAll(candidate, [ops]);
    if (!next.ok) break;
    candidate = next.book;
    if (upToLeases(candidate, reopened).toJSON() === actual) return;
  }
  const lost = describeDifference(base.book, reopen.reopened) ?? 'the documents differ';
  say(`the reopened book is not the ${acked.length} acknowledged merges (plus ${inDoubt.length} in doubt): ${lost}`);
}

function checkCopies(reopen: ReopenRecord, say: (m: string) => void): void {
  const fixed = new Map<string, number>();
  for (const copy of reopen.copies) {
    if (copy.depth !== null && copy.depth > RECOVERY_DEPTH_BOUND)
      say(`recovery copy ${copy.name} is at depth ${copy.depth}, past the bound of ${RECOVERY_DEPTH_BOUND}`);
    if (copy.fixedPoint) fixed.set(copy.writerId ?? '?', (fixed.get(copy.writerId ?? '?') ?? 0) + 1);
  }
  for (const [writer, n] of fixed) if (n > 1) say(`writer ${writer} has ${n} fixed-point recovery copies; the bound is one`);
}
