import { describe, expect, it } from 'vitest';
import { Skillbook, createIdAllocator } from '../src/index.ts';
import { addAt, fixedClock, ok } from './utils/fixture.ts';

const clock = fixedClock(Date.UTC(2026, 0, 1));
const add = (book: Skillbook, ...operations: object[]): Skillbook => addAt(clock, book, ...operations);

describe('Skillbook - revisions', () => {
  it('loaded skills have all three revisions at the load revision', () => {
    const b = Skillbook.fromJSON(add(Skillbook.empty(), { type: 'ADD', section: 'harness', issue: 'a' }).toJSON(), { revision: 5 });
    expect(b.revision).toBe(5);
    expect(b.revisionsOf('harness-00001')).toEqual({ content: 5, active: 5, counters: 5 });
  });

  it('each change records the new revision for what it changed: content, active, counters', () => {
    const b1 = add(Skillbook.empty(), { type: 'ADD', section: 'harness', issue: 'a' });
    expect(b1.revisionsOf('harness-00001')).toEqual({ content: 1, active: 1, counters: 1 });
    const b2 = add(b1, { type: 'TAG', skill_id: 'harness-00001' });
    expect(b2.revisionsOf('harness-00001')).toEqual({ content: 1, active: 1, counters: 2 });
    const b3 = add(b2, { type: 'UPDATE', skill_id: 'harness-00001', issue: 'b' });
    expect(b3.revisionsOf('harness-00001')).toEqual({ content: 3, active: 1, counters: 2 });
    const b4 = add(b3, { type: 'REMOVE', skill_id: 'harness-00001' });
    expect(b4.revisionsOf('harness-00001')).toEqual({ content: 3, active: 4, counters: 2 });
    const b5 = add(b4, { type: 'REMOVE', skill_id: 'harness-00001' }, { type: 'UPDATE', skill_id: 'harness-00001', issue: 'b' });
    expect(b5.revision).toBe(5);
    expect(b5.revisionsOf('harness-00001')).toEqual({ content: 3, active: 4, counters: 2 });
  });
});

describe('Skillbook - purge and tombstones', () => {
  it('purge hard-deletes, drops the id from its section, records a tombstone and bumps the revision', () => {
    const b = add(
      Skillbook.empty(),
      { type: 'ADD', section: 'harness', issue: 'a' },
      { type: 'ADD', section: 'harness', issue: 'b' },
      { type: 'ADD', section: 'context', issue: 'c', insight: 'x' },
    );
    const p = b.purge(['harness-00001', 'context-00003', 'unknown']);
    expect(p.revision).toBe(b.revision + 1);
    expect([...p.skills()].map((s) => s.id)).toEqual(['harness-00002']);
    expect(p.tombstone('context-00003')).toBe(p.revision);
    expect(p.tombstone('harness-00002')).toBeUndefined();
    expect(p.stats()).toEqual({ sections: 1, skills: 1, active_skills: 1, by_section: { context: 0, harness: 1 } });
    expect(JSON.parse(p.toJSON()).sections).toEqual({ harness: ['harness-00002'] });
    expect(b.purge(['unknown'])).toBe(b);
    expect(b.size).toBe(3);
  });
});

describe('Skillbook - shared id allocation', () => {
  it('an allocator shared by two books gives ids that never collide, and next_id follows it', () => {
    const base = Skillbook.empty();
    const ids = createIdAllocator(base.nextId);
    const a = ok(base.applyBatch({ operations: [{ type: 'ADD', section: 'harness', issue: 'a' }] }, { allocateId: ids.allocate }));
    const b = ok(
      base.applyBatch({ operations: [{ type: 'ADD', section: 'context', issue: 'b', insight: 'x' }] }, { allocateId: ids.allocate }),
    );
    expect([a.applied[0]?.skill_id, b.applied[0]?.skill_id]).toEqual(['harness-00001', 'context-00002']);
    expect(b.book.nextId).toBe(2);
    const merged = ok(a.book.replay(b.applied));
    expect(merged.book.nextId).toBe(2);
    expect(a.book.conflicts(b.applied, base.revision)).toEqual([]);
  });

  it('an allocator that hands out an existing id refuses the batch', () => {
    const b = add(Skillbook.empty(), { type: 'ADD', section: 'harness', issue: 'a' });
    const r = b.applyBatch(
      { operations: [{ type: 'ADD', section: 'harness', issue: 'b' }] },
      { allocateId: createIdAllocator(0).allocate },
    );
    expect(r.ok ? null : r.error.code).toBe('duplicate_skill_id');
  });
});
