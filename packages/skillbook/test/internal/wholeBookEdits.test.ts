import { describe, expect, it } from 'vitest';
import { Skillbook } from '../../src/index.ts';
import type { Skill } from '../../src/index.ts';

const clock = { now: () => Date.UTC(2026, 0, 1) };

function book(ops: readonly Record<string, unknown>[], from = Skillbook.empty()): Skillbook {
  const r = from.applyBatch({ operations: ops }, { clock });
  if (!r.ok) throw new Error(r.error.message);
  return r.book;
}

const skills = (b: Skillbook): Record<string, Skill> => Object.fromEntries([...b.skills()].map((s) => [s.id, s]));

describe('whole-book edits', () => {
  it("adopt - takes another writer's skills as they are, adds newcomers, purges what it deleted, in one revision", () => {
    const ours = book([
      { type: 'ADD', section: 'context', issue: 'a', insight: 'x' },
      { type: 'ADD', section: 'harness', issue: 'b' },
      { type: 'ADD', section: 'harness', issue: 'c' },
    ]);
    // ACE loads the document, edits a skill, adds one, deletes one, and saves
    const theirs = book(
      [
        { type: 'UPDATE', skill_id: 'context-00001', insight: 'changed by ACE' },
        { type: 'TAG', skill_id: 'context-00001', metadata: { delta: 1 } },
        { type: 'ADD', section: 'harness', issue: 'newcomer' },
      ],
      Skillbook.fromJSON(ours.toJSON()),
    ).purge(['harness-00003']);
    const changed = [theirs.get('context-00001'), theirs.get('harness-00004')].filter((s): s is Skill => s !== undefined);
    const adopted = ours.adopt({ skills: changed, purged: ['harness-00003'], nextId: theirs.nextId });
    expect(adopted.revision).toBe(ours.revision + 1);
    expect(skills(adopted)).toEqual(skills(theirs));
    expect(adopted.nextId).toBe(theirs.nextId);
    expect(adopted.tombstone('harness-00003')).toBe(adopted.revision);
    expect(adopted.stats()).toEqual(theirs.stats());
    expect(adopted.toJSON()).toBe(theirs.toJSON());
    expect(ours.adopt({ skills: [], purged: [], nextId: 0 }, { revision: 42 }).revision).toBe(42);
  });

  it('adopt - any string is an id: __proto__ and constructor are ordinary skills', () => {
    const start = book([{ type: 'ADD', section: 'harness', issue: 'p', skill_id: '__proto__' }]);
    const proto = start.get('__proto__');
    if (!proto) throw new Error('no skill');
    const adopted = start.adopt({
      skills: [
        { ...proto, issue: 'q' },
        { ...proto, id: 'constructor' },
      ],
      purged: [],
      nextId: 0,
    });
    expect([...adopted.skills()].map((s) => [s.id, s.issue])).toEqual([
      ['__proto__', 'q'],
      ['constructor', 'p'],
    ]);
    expect(adopted.purge(['__proto__']).has('__proto__')).toBe(false);
  });

  it('reserveIds - raises next_id at the same revision, so own allocation and the document start past it', () => {
    const b = book([{ type: 'ADD', section: 'harness', issue: 'a' }]);
    const reserved = b.reserveIds(100);
    expect([reserved.revision, reserved.nextId, reserved.size]).toEqual([b.revision, 100, 1]);
    expect(reserved.reserveIds(50)).toBe(reserved);
    expect(book([{ type: 'ADD', section: 'harness', issue: 'b' }], reserved).get('harness-00101')?.issue).toBe('b');
    expect(JSON.parse(reserved.toJSON()).next_id).toBe(100);
    expect(() => b.reserveIds(Number.NaN)).toThrow(RangeError);
  });

  it('reserveIds - on a draft, finish builds the raised book even with no other change', () => {
    const b = book([{ type: 'ADD', section: 'harness', issue: 'a' }]);
    const draft = b.edit();
    draft.reserveIds(20);
    expect(draft.nextId).toBe(20);
    const finished = draft.finish();
    expect([finished.revision, finished.nextId]).toEqual([b.revision, 20]);
  });
});
