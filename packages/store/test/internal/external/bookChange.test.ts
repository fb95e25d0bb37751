import { describe, expect, it } from 'vitest';
import { Skillbook } from '@cohort/skillbook';
import { bookChange } from '../../../src/internal/external/bookChange.ts';

const clock = { now: () => Date.UTC(2026, 0, 1) };

describe('bookChange', () => {
  it('bookChange - the skills after adds or changes (whole), the ids it lacks, its next_id; adopting it gives the same skills', () => {
    const r = Skillbook.empty().applyBatch(
      { operations: [1, 2, 3].map((i) => ({ type: 'ADD', section: 'harness', issue: `s${i}` })) },
      { clock },
    );
    if (!r.ok) throw new Error(r.error.message);
    const before = r.book;
    const edited = before.applyBatch(
      {
        operations: [
          { type: 'TAG', skill_id: 'harness-00001', metadata: { delta: 1 } },
          { type: 'ADD', section: 'harness', issue: 's4' },
        ],
      },
      { clock },
    );
    if (!edited.ok) throw new Error(edited.error.message);
    const after = edited.book.purge(['harness-00002']);
    const change = bookChange(before, after);
    expect(change.skills.map((s) => s.id)).toEqual(['harness-00001', 'harness-00004']);
    expect([change.purged, change.next]).toEqual([['harness-00002'], after.nextId]);
    const adopted = before.adopt({ skills: change.skills, purged: change.purged, nextId: change.next });
    expect([...adopted.skills()]).toEqual([...after.skills()]);
    expect(bookChange(after, Skillbook.fromJSON(after.toJSON())).skills).toEqual([]);
  });
});
