import type { BatchResult, Skillbook } from '@cohort/skillbook';
import { replayHistory } from '@cohort/store';
import type { PersistedCommit } from '@cohort/store';
import type { ReopenRecord } from '../runScenario.ts';

function skillsDiffer(a: Skillbook, b: Skillbook): string[] {
  const out: string[] = [];
  for (const s of a.skills()) if (JSON.stringify(b.get(s.id)) !== JSON.stringify(s)) out.push(s.id);
  for (const s of b.skills()) if (!a.has(s.id)) out.push(s.id);
  return out;
}

const count = (keys: readonly string[]): Map<string, number> => {
  const m = new Map<string, number>();
  for (const k of keys) m.set(k, (m.get(k) ?? 0) + 1);
  return m;
};

/**
 * Invariant 7 where another program saved the document too, so the reopened book is not the
 * acknowledged merges alone: its history must hold every acknowledged merge of the epoch (one
 * whose ops change nothing need not be journaled), no commit of the epoch's writer that was not
 * acknowledged (or in doubt), and the reopened book must be what that history replays to —
 * the epoch's merges and what the store took in from the other program, and nothing else.
 *
 * @example
 * checkReopenedTakingIn(reopen, history, (m) => violations.push(m));
 */
export function checkReopenedTakingIn(reopen: ReopenRecord, history: readonly PersistedCommit[], say: (m: string) => void): void {
  const reopened = reopen.reopened;
  if (!reopened) return;
  const writer = `w${reopen.afterEpoch}`;
  const ours = history.filter((c) => c.kind === 'commit' && c.writerId === writer && c.revision > reopen.initial.revision);
  const journaled = count(ours.map((c) => c.sessionId));
  const acked = reopen.appends.filter((a) => a.result === 'acknowledged');
  const inDoubt = reopen.appends.filter((a) => a.result !== 'acknowledged' && a.aliveAtSubmit && a.aliveAtResult !== true);
  const allowed = count([...acked, ...inDoubt].map((a) => a.sessionId));
  for (const append of acked) {
    if ((journaled.get(append.sessionId) ?? 0) > 0) continue;
    const again: BatchResult = reopened.replay(append.ops);
    // a merge of ops that change nothing is acknowledged without a journal line
    if (!again.ok || again.book !== reopened) say(`the acknowledged merge of ${append.sessionId} is not in the store's history`);
  }
  for (const [session, n] of journaled) {
    if (n > (allowed.get(session) ?? 0))
      say(`the history holds ${n} commits of ${session}, which was acknowledged (or in doubt) ${allowed.get(session) ?? 0} times`);
  }
  const replayed = replayHistory(history);
  if (!replayed.ok) {
    say(`the store's history does not replay: ${replayed.message}`);
    return;
  }
  const differ = skillsDiffer(replayed.book, reopened);
  if (differ.length > 0) say(`the reopened book is not what its history replays to: ${differ.slice(0, 4).join(', ')} differ`);
}
