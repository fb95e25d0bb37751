import { describe, expect, it } from 'vitest';
import { Skillbook } from '@cohort/skillbook';
import type { AppliedOp } from '@cohort/skillbook';
import { SessionEventSchema } from '@cohort/runtime';
import { EpochRecord } from '../src/EpochRecord.ts';
import { checkNoUnhandledErrors } from '../src/invariants/checkNoUnhandledErrors.ts';
import { checkRecovery } from '../src/invariants/checkRecovery.ts';
import { checkSettlement } from '../src/invariants/checkSettlement.ts';
import { checkUniqueIds } from '../src/invariants/checkUniqueIds.ts';
import type { CheckInput } from '../src/invariants/verdict.ts';
import { buildReference } from '../src/referenceModel.ts';
import type { ReopenRecord } from '../src/runScenario.ts';
import type { AppendRecord } from '../src/stores/RecordingStore.ts';

const at = '2026-01-01T00:00:00+00:00';
const add = (id: string): AppliedOp => ({
  type: 'ADD',
  section: 'context',
  skill_id: id,
  issue: `issue ${id}`,
  keywords: [],
  insight: 'x',
  at,
});

function record(): EpochRecord {
  let index = 0;
  return new EpochRecord(1, Skillbook.empty(), () => index++);
}

function input(records: EpochRecord[], extra: Partial<CheckInput> = {}): CheckInput {
  return {
    observations: { epochs: records, reopens: [], writers: null },
    references: records.map(buildReference),
    unhandled: [],
    ...extra,
  };
}

function spawned(r: EpochRecord, id: string, parentId: string | null = null): void {
  r.observe(
    SessionEventSchema.parse({
      type: 'session.spawned',
      sessionId: id,
      path: parentId ? [parentId, id] : [id],
      at: 0,
      parentId,
      depth: parentId ? 1 : 0,
      attempt: 1,
    }),
  );
}

function appended(ops: AppliedOp[], result: AppendRecord['result'], aliveAtResult: boolean): AppendRecord {
  return { sessionId: 's1', ops, aliveAtSubmit: true, result, aliveAtResult };
}

function reopen(appends: AppendRecord[], reopened: Skillbook): ReopenRecord {
  return { afterEpoch: 1, crashed: true, initial: Skillbook.empty(), appends, runtimeBook: null, reopened, message: null, copies: [] };
}

function replayed(ops: AppliedOp[]): Skillbook {
  const r = Skillbook.empty().replay(ops);
  if (!r.ok) throw new Error(r.error.message);
  return r.book;
}

describe('the invariants fail on broken observations', () => {
  it('invariants - a session that never settles, or whose parent is never told, breaks settles-once', () => {
    const r = record();
    spawned(r, 's1');
    r.call(null);
    const result = checkSettlement(input([r]));
    expect(result.ok).toBe(false);
    expect(result.detail.join('\n')).toMatch(/s1 never settled/);
    expect(result.detail.join('\n')).toMatch(/told its outcome 0 times/);
  });

  it('invariants - a session that committed before its child settled breaks settles-once', () => {
    const r = record();
    spawned(r, 's1');
    spawned(r, 's2', 's1');
    r.observe(SessionEventSchema.parse({ type: 'session.committed', sessionId: 's1', path: ['s1'], at: 0, ops: 0, baseRevision: 0 }));
    r.observe(
      SessionEventSchema.parse({
        type: 'session.failed',
        sessionId: 's2',
        path: ['s1', 's2'],
        at: 0,
        failure: {
          kind: 'cancelled',
          category: 'interruption',
          sessionId: 's2',
          path: ['s1', 's2'],
          message: 'late',
          discarded: { ops: 0, descendants: 0 },
          attempt: 1,
          at: 0,
        },
      }),
    );
    expect(checkSettlement(input([r])).detail.join('\n')).toMatch(/committed before its child s2 settled/);
  });

  it('invariants - one id allocated to two sessions, or misreported by a tool, breaks unique-ids', () => {
    const r = record();
    spawned(r, 's1');
    spawned(r, 's2');
    r.own('s1', [add('context-00001')], new Set());
    r.own('s2', [add('context-00001')], new Set());
    r.misreported.push('add_skill by s2 reported context-00009, but wrote context-00001');
    const result = checkUniqueIds(input([r]));
    expect(result.ok).toBe(false);
    expect(result.detail).toEqual([
      'add_skill by s2 reported context-00009, but wrote context-00001',
      'context-00001 was allocated to s1 and again to s2',
    ]);
  });

  it('invariants - an unhandled rejection or a rejected run breaks no-unhandled-errors', () => {
    const r = record();
    r.escaped.push('rt.run rejected (it must never reject): boom');
    const result = checkNoUnhandledErrors(input([r], { unhandled: ['unhandled rejection: Error: leaked'] }));
    expect(result.ok).toBe(false);
    expect(result.detail).toEqual(['unhandled rejection: Error: leaked', 'rt.run rejected (it must never reject): boom']);
  });

  it('invariants - crash-recovery demands every acknowledged merge, allows a whole in-doubt prefix, and nothing refused', () => {
    const a = add('context-00001');
    const b = add('context-00002');
    const check = (appends: AppendRecord[], book: Skillbook) =>
      checkRecovery({ observations: { epochs: [], reopens: [reopen(appends, book)], writers: null }, references: [], unhandled: [] }).ok;
    // an acknowledged merge lost
    expect(check([appended([a], 'acknowledged', true)], Skillbook.empty())).toBe(false);
    // an in-doubt merge (refused because the process died under it) may or may not be there
    expect(check([appended([a], 'acknowledged', true), appended([b], 'refused', false)], replayed([a]))).toBe(true);
    expect(check([appended([a], 'acknowledged', true), appended([b], 'refused', false)], replayed([a, b]))).toBe(true);
    // a merge refused while the process was alive must not be there
    expect(check([appended([a], 'acknowledged', true), appended([b], 'refused', true)], replayed([a, b]))).toBe(false);
  });
});
