import { describe, expect, it } from 'vitest';
import { Skillbook } from '../../../src/index.ts';
import { sameApplied } from '../../../src/internal/engine/appliedOp.ts';

const clock = { now: () => Date.UTC(2026, 0, 1) };

describe('appliedOp', () => {
  it("appliedFor - applied ops keep ACE's key order, with at last, for every type", () => {
    const start = Skillbook.empty().applyBatch(
      {
        operations: [
          { type: 'ADD', section: 'context', issue: 'a', insight: 'b', keywords: ['k'] },
          { type: 'ADD', section: 'harness', issue: 'c', reason: 'why', insight_source: { trace_uid: 'ace:1' } },
        ],
      },
      { clock },
    );
    if (!start.ok) throw new Error(start.error.message);
    const next = start.book.applyBatch(
      {
        operations: [
          { type: 'UPDATE', skill_id: 'context-00001', insight: 'd' },
          { type: 'TAG', skill_id: 'context-00001', metadata: { delta: -2, helpful: 3 } },
          { type: 'REMOVE', skill_id: 'harness-00002', reason: 'stale' },
        ],
      },
      { clock },
    );
    if (!next.ok) throw new Error(next.error.message);
    expect([...start.applied, ...next.applied].map((op) => Object.keys(op))).toEqual([
      ['type', 'section', 'issue', 'keywords', 'insight', 'skill_id', 'at'],
      ['type', 'section', 'issue', 'keywords', 'skill_id', 'reason', 'insight_source', 'at'],
      ['type', 'section', 'insight', 'skill_id', 'at'],
      ['type', 'section', 'skill_id', 'metadata', 'at'],
      ['type', 'section', 'skill_id', 'reason', 'at'],
    ]);
    expect(next.applied[1]?.metadata).toEqual({ delta: -1, helpful: 3 });
  });

  it('sameApplied - ops that say the same are the same; any field that differs is not', () => {
    const r = Skillbook.empty().applyBatch(
      { operations: [{ type: 'ADD', section: 'harness', issue: 'a', keywords: ['x', 'y'] }] },
      { clock },
    );
    if (!r.ok) throw new Error(r.error.message);
    const op = r.applied[0];
    if (!op) throw new Error('no op');
    expect(sameApplied(op, { ...op, keywords: ['x', 'y'] })).toBe(true);
    expect(sameApplied(op, { ...op, keywords: ['x'] })).toBe(false);
    expect(sameApplied(op, { ...op, at: '2026-01-02T00:00:00.000000+00:00' })).toBe(false);
    expect(sameApplied(op, { ...op, reason: 'r' })).toBe(false);
    expect(sameApplied({ ...op, metadata: { delta: 1 } }, { ...op, metadata: { delta: 1 } })).toBe(true);
    expect(sameApplied({ ...op, metadata: { delta: 1 } }, { ...op, metadata: { delta: -1 } })).toBe(false);
  });
});
