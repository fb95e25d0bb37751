import { describe, expect, it } from 'vitest';
import { Skillbook } from '@cohort/skillbook';
import { renumberExternal } from '../../src/internal/renumberExternal.ts';

function withSkill(book: Skillbook, id: string, issue: string, day: number): Skillbook {
  const r = book.applyBatch({ operations: [{ type: 'ADD', section: 'harness', skill_id: id, issue }] }, { clock: { now: () => Date.UTC(2026, 0, day) } });
  if (!r.ok) throw new Error(r.error.message);
  return r.book;
}

const none = { leased: () => false, leasedThrough: 0, remembered: [] };

describe('renumberExternal', () => {
  it('renumberExternal - a newcomer under one of our ids, or in a lease, gets a new id; the rest is left as it is', () => {
    const base = withSkill(Skillbook.empty(), 'harness-00001', 'shared', 1);
    const ours = withSkill(base, 'harness-00002', 'ours', 2);
    const disk = withSkill(withSkill(withSkill(base, 'harness-00002', 'theirs', 3), 'harness-00007', 'in a lease', 3), 'harness-00099', 'free', 3);
    const out = renumberExternal(base, ours, disk, { leased: (n) => n >= 5 && n < 10, leasedThrough: 9, remembered: [] });
    expect([...out.idMap]).toEqual([['harness-00002', 'harness-00100'], ['harness-00007', 'harness-00101']]);
    expect(out.fresh.map((r) => [r.from, r.to])).toEqual([['harness-00002', 'harness-00100'], ['harness-00007', 'harness-00101']]);
    expect([...out.disk.skills()].map((s) => [s.id, s.issue])).toEqual([
      ['harness-00001', 'shared'], ['harness-00099', 'free'], ['harness-00100', 'theirs'], ['harness-00101', 'in a lease'],
    ]);
    expect(renumberExternal(base, base, disk, none).disk).toBe(disk);
  });

  it('renumberExternal - a skill renumbered before lands on the same id again, and is not new twice', () => {
    const base = Skillbook.empty();
    const disk = withSkill(base, 'harness-00002', 'theirs', 3);
    const [created] = [...disk.skills()];
    const remembered = [{ from: 'harness-00002', createdAt: created?.created_at ?? '', to: 'harness-00050' }];
    const ours = withSkill(withSkill(base, 'harness-00002', 'ours', 2), 'harness-00050', 'theirs', 3);
    const out = renumberExternal(base, ours, disk, { leased: () => false, leasedThrough: 0, remembered });
    expect([...out.idMap]).toEqual([['harness-00002', 'harness-00050']]);
    expect(out.fresh).toEqual([]);
  });
});
