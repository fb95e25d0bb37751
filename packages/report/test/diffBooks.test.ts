import { describe, expect, it } from 'vitest';
import { Skillbook } from '@cohort/skillbook';
import { diffBooks } from '../src/index.ts';

const clock = { now: () => Date.UTC(2026, 0, 1) };

function apply(book: Skillbook, operations: unknown[]): Skillbook {
  const result = book.applyBatch({ operations }, { clock });
  if (!result.ok) throw new Error(result.error.message);
  return result.book;
}

const before = apply(Skillbook.empty(), [
  { type: 'ADD', section: 'context', issue: 'kept', insight: 'same' },
  { type: 'ADD', section: 'context', issue: 'edited', insight: 'old' },
  { type: 'ADD', section: 'context', issue: 'retired', insight: 'x' },
  { type: 'ADD', section: 'harness', issue: 'tagged', insight: 'x' },
  { type: 'ADD', section: 'harness', issue: 'purged', insight: 'x' },
]);

describe('diffBooks', () => {
  it('diffBooks - added, changed (content and tags), soft-removed and purged skills; the rest unchanged', () => {
    let after = apply(before, [
      { type: 'ADD', section: 'harness', issue: 'new', insight: 'fresh' },
      { type: 'UPDATE', skill_id: 'context-00002', insight: 'new' },
      { type: 'REMOVE', skill_id: 'context-00003' },
      { type: 'TAG', skill_id: 'harness-00004', metadata: { delta: 1 } },
    ]);
    after = after.purge(['harness-00005']);
    const diff = diffBooks(before, after);
    expect(diff.counts).toEqual({ added: 1, changed: 2, removed: 2, unchanged: 1 });
    expect(diff.added.map((s) => s.issue)).toEqual(['new']);
    expect(diff.changed.map((c) => [c.before.id, c.before.insight, c.after.insight, c.after.helpful])).toEqual([
      ['context-00002', 'old', 'new', 0],
      ['harness-00004', 'x', 'x', 1],
    ]);
    expect(diff.removed.map((s) => [s.id, s.active])).toEqual([
      ['context-00003', false],
      ['harness-00005', true],
    ]);
    expect(diff.before).toEqual({ revision: before.revision, skills: 5 });
    expect(diff.after).toEqual({ revision: after.revision, skills: 5 });
  });

  it('diffBooks - lists stop at the limit, counts stay exact', () => {
    const after = apply(
      before,
      Array.from({ length: 7 }, (_, i) => ({ type: 'ADD', section: 'context', issue: `n${i}`, insight: 'x' })),
    );
    const diff = diffBooks(before, after, 3);
    expect(diff.added).toHaveLength(3);
    expect(diff.counts.added).toBe(7);
  });

  it('diffBooks - a book against itself is all unchanged', () => {
    expect(diffBooks(before, before).counts).toEqual({ added: 0, changed: 0, removed: 0, unchanged: 5 });
  });
});
