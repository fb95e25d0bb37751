import { describe, expect, it } from 'vitest';
import { Skillbook } from '../../../src/index.ts';
import { effectOf, isProducedOp, isUpdateEffect } from '../../../src/internal/engine/replayCache.ts';

const clock = { now: () => Date.UTC(2026, 0, 1) };

describe('replayCache', () => {
  it('effectOf - an op the skillbook applied carries what it did; an ADD the skill it made, an UPDATE the skill before and after', () => {
    const added = Skillbook.empty().applyBatch({ operations: [{ type: 'ADD', section: 'harness', issue: 'a' }] }, { clock });
    expect(added.ok).toBe(true);
    if (!added.ok) return;
    const [add] = added.applied;
    const made = effectOf(add);
    expect(made).toBe(added.book.get('harness-00001'));
    expect(made && isUpdateEffect(made)).toBe(false);
    const updated = added.book.applyBatch({ operations: [{ type: 'UPDATE', skill_id: 'harness-00001', issue: 'b' }] }, { clock });
    expect(updated.ok).toBe(true);
    if (!updated.ok) return;
    const effect = effectOf(updated.applied[0]);
    expect(effect && isUpdateEffect(effect) && [effect.before, effect.after, effect.content]).toEqual([
      added.book.get('harness-00001'),
      updated.book.get('harness-00001'),
      true,
    ]);
  });

  it('isProducedOp - no copy of an op carries its effect: not a spread, not JSON; the op itself is frozen', () => {
    const r = Skillbook.empty().applyBatch({ operations: [{ type: 'ADD', section: 'harness', issue: 'a' }] }, { clock });
    if (!r.ok) throw new Error(r.error.message);
    const [op] = r.applied;
    expect(isProducedOp(op)).toBe(true);
    expect(Object.isFrozen(op)).toBe(true);
    expect(isProducedOp({ ...op })).toBe(false);
    expect(isProducedOp(JSON.parse(JSON.stringify(op)))).toBe(false);
    expect(Object.keys(op ?? {})).not.toContain('effect');
    // what it did is no key of it at all (not even a symbol one): equality and copies never see it
    expect(Reflect.ownKeys(op ?? {})).toEqual(Object.keys(op ?? {}));
    expect(isProducedOp(Object.freeze({ ...op }))).toBe(false);
    expect(isProducedOp(null)).toBe(false);
    expect(isProducedOp('op')).toBe(false);
  });

  it('freezeWithEffect - the usual ADD (issue, insight, default keywords) is a plain frozen object of its seven keys', () => {
    const r = Skillbook.empty().applyBatch({ operations: [{ type: 'ADD', section: 'harness', issue: 'a', insight: 'b' }] }, { clock });
    if (!r.ok) throw new Error(r.error.message);
    const [op] = r.applied;
    expect(Reflect.ownKeys(op ?? {})).toEqual(['type', 'section', 'issue', 'keywords', 'insight', 'skill_id', 'at']);
    expect(Object.getPrototypeOf(op)).toBe(Object.prototype);
    expect(op?.constructor).toBe(Object);
    expect(op).toStrictEqual({
      type: 'ADD',
      section: 'harness',
      issue: 'a',
      keywords: ['harness'],
      insight: 'b',
      skill_id: 'harness-00001',
      at: op?.at,
    });
    expect(Object.isFrozen(op)).toBe(true);
    expect(effectOf(op)).toBe(r.book.get('harness-00001'));
  });

  it('replay - a replayed op found on the very skill it found first reuses its skill: every level shares one object', () => {
    const base = Skillbook.empty().applyBatch({ operations: [{ type: 'ADD', section: 'harness', issue: 'a' }] }, { clock });
    if (!base.ok) throw new Error(base.error.message);
    const child = base.book.applyBatch({ operations: [{ type: 'TAG', skill_id: 'harness-00001', metadata: { delta: 1 } }] }, { clock });
    if (!child.ok) throw new Error(child.error.message);
    const parent = base.book.replay(child.applied);
    expect(parent.ok && parent.book.get('harness-00001')).toBe(child.book.get('harness-00001'));
    expect(parent.ok && parent.applied[0]).toBe(child.applied[0]);
  });
});
