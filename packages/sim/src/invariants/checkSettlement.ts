import type { EpochRecord } from '../EpochRecord.ts';
import type { InvariantResult } from '../SimReport.ts';
import type { CheckInput } from './verdict.ts';
import { epochsOf, inEpoch, verdict } from './verdict.ts';

/**
 * Invariant 4 — every spawned session settles exactly once, and its parent is told: one
 * terminal event per session; every `spawn` / `rt.run` call resolved once, with the outcome
 * its session's terminal event describes (a retried attempt hands its call on to the next
 * attempt); a session commits only after each of its children settled; nothing is live at
 * the end; virtual time never ran out with work pending.
 *
 * @example
 * checkSettlement({ observations, references }).ok;
 */
export function checkSettlement(input: CheckInput): InvariantResult {
  const violations: string[] = [];
  let sessions = 0;
  let calls = 0;
  for (const { record } of epochsOf(input)) {
    const say = (m: string): number => violations.push(inEpoch(input, record, m));
    for (const hang of record.hangs) say(hang);
    if (record.final && record.final.live !== 0) say(`${record.final.live} sessions are still live after every root settled`);
    sessions += record.sessions.size;
    calls += record.calls.length;
    checkTerminals(record, say);
    checkCalls(record, say);
    checkChildrenFirst(record, say);
  }
  return verdict(
    4,
    violations,
    `${sessions} sessions settled exactly once; ${calls} spawn and run calls each told the outcome once; no commit before its children settled`,
  );
}

function checkTerminals(record: EpochRecord, say: (m: string) => void): void {
  for (const s of record.sessions.values()) {
    if (s.terminals.length === 0) say(`session ${s.path.join('/')} never settled`);
    else if (s.terminals.length > 1)
      say(`session ${s.path.join('/')} settled ${s.terminals.length} times (${s.terminals.map((t) => t.kind ?? t.type).join(', ')})`);
  }
}

function checkCalls(record: EpochRecord, say: (m: string) => void): void {
  const delivered = new Set<string>();
  for (const call of record.calls) {
    const outcome = call.outcome;
    if (call.deliveries !== 1 || !outcome) {
      say(`a spawn by ${call.parentId ?? 'the runtime'} was told its outcome ${call.deliveries} times`);
      continue;
    }
    delivered.add(outcome.sessionId);
    const terminal = record.sessions.get(outcome.sessionId)?.terminals[0];
    const expected = outcome.status === 'committed' ? 'merged' : 'failed';
    if (!terminal || terminal.type !== expected) {
      say(
        `${outcome.sessionId}'s parent was told "${outcome.status}", but the session ${terminal ? `ended ${terminal.type}` : 'has no terminal event'}`,
      );
    } else if (outcome.status === 'failed' && terminal.kind !== outcome.failure.kind) {
      say(`${outcome.sessionId}'s parent was told it failed with ${outcome.failure.kind}; its event says ${terminal.kind ?? '?'}`);
    }
  }
  const sessions = [...record.sessions.values()];
  for (const s of sessions) {
    if (delivered.has(s.id)) continue;
    const retried = sessions.some((o) => o.parentId === s.parentId && o.attempt === s.attempt + 1);
    const failed = s.terminals.some((t) => t.type === 'failed');
    if (!(failed && retried)) say(`nobody was told how session ${s.path.join('/')} ended`);
  }
}

function checkChildrenFirst(record: EpochRecord, say: (m: string) => void): void {
  for (const s of record.sessions.values()) {
    if (s.committedAt === null) continue;
    for (const child of record.sessions.values()) {
      if (child.parentId !== s.id) continue;
      const settled = child.terminals[0]?.index;
      if (settled === undefined || settled > s.committedAt) say(`${s.path.join('/')} committed before its child ${child.id} settled`);
    }
  }
}
