import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Skillbook } from '../src/index.ts';
import type { AppliedOp, Conflict } from '../src/index.ts';
import { book as arbitraryBook, rawBatch, tickingClock } from './utils/arbitraries.ts';

const clock = tickingClock();

function apply(book: Skillbook, ...operations: object[]): Skillbook {
  const r = book.applyBatch({ operations }, { clock });
  if (!r.ok) throw new Error(r.error.message);
  return r.book;
}

function ops(book: Skillbook, ...operations: object[]): AppliedOp[] {
  const r = book.applyBatch({ operations }, { clock });
  if (!r.ok) throw new Error(r.error.message);
  return r.applied;
}

/** A base book with one context and one harness skill, at revision 1. */
function base(): Skillbook {
  return apply(
    Skillbook.empty(),
    { type: 'ADD', section: 'context', issue: 'Dates', insight: 'Use ISO 8601' },
    { type: 'ADD', section: 'harness', issue: 'Retries' },
  );
}

describe('conflicts - the conflict table', () => {
  it('an ADD with an allocated id never conflicts', () => {
    const b = base();
    const child = ops(b, { type: 'ADD', section: 'context', issue: 'New', insight: 'x' }); // context-00003
    const parent = apply(b, { type: 'TAG', skill_id: 'context-00001' });
    expect(parent.conflicts(child, b.revision)).toEqual([]);
  });

  it('an ADD whose id now exists conflicts with id_exists', () => {
    const b = base();
    const child = ops(b, { type: 'ADD', section: 'context', issue: 'Mine', insight: 'x', skill_id: 'shared-1' });
    const parent = apply(b, { type: 'ADD', section: 'context', issue: 'Theirs', insight: 'y', skill_id: 'shared-1' });
    expect(parent.conflicts(child, b.revision)).toEqual<Conflict[]>([
      { opIndex: 0, type: 'ADD', skillId: 'shared-1', reason: 'id_exists', revision: parent.revision },
    ]);
  });

  it('an ADD whose id was purged conflicts with id_exists', () => {
    const b = apply(base(), { type: 'ADD', section: 'context', issue: 'Gone', insight: 'x', skill_id: 'gone-1' });
    const child = ops(b.purge(['gone-1']), { type: 'ADD', section: 'context', issue: 'Again', insight: 'x', skill_id: 'gone-1' });
    const parent = b.purge(['gone-1']);
    expect(parent.conflicts(child, b.revision).map((c) => c.reason)).toEqual(['id_exists']);
  });

  it('a TAG never conflicts, even on a skill changed, removed or purged meanwhile', () => {
    const b = base();
    const child = ops(b, { type: 'TAG', skill_id: 'context-00001', metadata: { delta: 1 } });
    const changed = apply(b, { type: 'UPDATE', skill_id: 'context-00001', insight: 'Other' });
    const removed = apply(b, { type: 'REMOVE', skill_id: 'context-00001' });
    expect(changed.conflicts(child, b.revision)).toEqual([]);
    expect(removed.conflicts(child, b.revision)).toEqual([]);
    expect(b.purge(['context-00001']).conflicts(child, b.revision)).toEqual([]);
  });

  it('an UPDATE conflicts when the content changed since the base', () => {
    const b = base();
    const child = ops(b, { type: 'UPDATE', skill_id: 'context-00001', insight: 'Mine' });
    const parent = apply(b, { type: 'UPDATE', skill_id: 'context-00001', issue: 'Theirs' });
    expect(parent.conflicts(child, b.revision)).toEqual<Conflict[]>([
      { opIndex: 0, type: 'UPDATE', skillId: 'context-00001', reason: 'content_changed', revision: parent.revision },
    ]);
  });

  it('an UPDATE does not conflict with a TAG, a new source or an unchanged rewrite since the base', () => {
    const b = base();
    const child = ops(b, { type: 'UPDATE', skill_id: 'context-00001', insight: 'Mine' });
    const parent = apply(
      b,
      { type: 'TAG', skill_id: 'context-00001', metadata: { delta: -1 } },
      { type: 'UPDATE', skill_id: 'context-00001', insight: 'Use ISO 8601', insight_source: { source_system: 's', trace_id: 't' } },
    );
    expect(parent.conflicts(child, b.revision)).toEqual([]);
    expect(parent.revisionsOf('context-00001')).toEqual({ content: 1, active: 1, counters: parent.revision });
  });

  it('an UPDATE conflicts with removed when the target was deactivated or purged since the base', () => {
    const b = base();
    const child = ops(b, { type: 'UPDATE', skill_id: 'harness-00002', insight: 'Mine' });
    const removed = apply(b, { type: 'REMOVE', skill_id: 'harness-00002' });
    expect(removed.conflicts(child, b.revision)).toEqual<Conflict[]>([
      { opIndex: 0, type: 'UPDATE', skillId: 'harness-00002', reason: 'removed', revision: removed.revision },
    ]);
    const purged = b.purge(['harness-00002']);
    expect(purged.tombstone('harness-00002')).toBe(purged.revision);
    expect(purged.conflicts(child, b.revision)).toEqual<Conflict[]>([
      { opIndex: 0, type: 'UPDATE', skillId: 'harness-00002', reason: 'removed', revision: purged.revision },
    ]);
  });

  it('an UPDATE of a skill removed before the base does not conflict', () => {
    const b = apply(base(), { type: 'REMOVE', skill_id: 'harness-00002' });
    const child = ops(b, { type: 'UPDATE', skill_id: 'harness-00002', insight: 'Still learning' });
    const parent = apply(b, { type: 'TAG', skill_id: 'harness-00002' });
    expect(parent.conflicts(child, b.revision)).toEqual([]);
  });

  it('a REMOVE conflicts when the content changed since the base', () => {
    const b = base();
    const child = ops(b, { type: 'REMOVE', skill_id: 'context-00001' });
    const parent = apply(b, { type: 'UPDATE', skill_id: 'context-00001', keywords: ['iso'] });
    expect(parent.conflicts(child, b.revision)).toEqual<Conflict[]>([
      { opIndex: 0, type: 'REMOVE', skillId: 'context-00001', reason: 'content_changed', revision: parent.revision },
    ]);
  });

  it('removing an already removed skill is not a conflict', () => {
    const b = base();
    const child = ops(b, { type: 'REMOVE', skill_id: 'context-00001' });
    const parent = apply(
      b,
      { type: 'UPDATE', skill_id: 'context-00001', insight: 'Changed' },
      { type: 'REMOVE', skill_id: 'context-00001' },
    );
    expect(parent.conflicts(child, b.revision)).toEqual([]);
  });

  it('ops on ids the book never had never conflict', () => {
    const b = base();
    const child = ops(
      apply(b, { type: 'ADD', section: 'context', issue: 'Child only', insight: 'x', skill_id: 'child-1' }),
      { type: 'UPDATE', skill_id: 'child-1', insight: 'y' },
      { type: 'REMOVE', skill_id: 'child-1' },
    );
    expect(b.conflicts(child, b.revision)).toEqual([]);
  });

  it('conflicts name every conflicting op of a commit, in op order', () => {
    const b = base();
    const child = ops(
      b,
      { type: 'UPDATE', skill_id: 'context-00001', insight: 'Mine' },
      { type: 'TAG', skill_id: 'context-00001' },
      { type: 'UPDATE', skill_id: 'harness-00002', issue: 'Mine too' },
    );
    const parent = apply(
      b,
      { type: 'UPDATE', skill_id: 'context-00001', insight: 'Theirs' },
      { type: 'REMOVE', skill_id: 'harness-00002' },
    );
    expect(parent.conflicts(child, b.revision).map((c) => [c.opIndex, c.reason])).toEqual([
      [0, 'content_changed'],
      [2, 'removed'],
    ]);
  });
});

/** What the table predicts, judged by content: the skill in the base book against the parent's. */
function predicted(baseBook: Skillbook, parent: Skillbook, op: AppliedOp): Conflict['reason'] | null {
  const before = baseBook.get(op.skill_id);
  const after = parent.get(op.skill_id);
  const contentChanged =
    after !== undefined &&
    (before === undefined ||
      before.issue !== after.issue ||
      before.insight !== after.insight ||
      before.keywords.join('\u0000') !== after.keywords.join('\u0000'));
  const deactivated = before?.active === true && after?.active === false;
  switch (op.type) {
    case 'ADD':
      return after !== undefined ? 'id_exists' : null;
    case 'TAG':
      return null;
    case 'UPDATE':
      return contentChanged ? 'content_changed' : deactivated ? 'removed' : null;
    case 'REMOVE':
      return after?.active === true && contentChanged ? 'content_changed' : null;
  }
}

describe('conflicts - against a content model', () => {
  it('conflicts() agrees with what changed between the base and the parent, for random commits', () => {
    fc.assert(
      fc.property(arbitraryBook, rawBatch, rawBatch, (b, parentBatch, childBatch) => {
        const parent = b.applyBatch(parentBatch).book;
        const child = b.applyBatch(childBatch);
        if (!child.ok) return;
        const expected = child.applied.flatMap((op, opIndex) => {
          const reason = predicted(b, parent, op);
          return reason ? [[opIndex, reason]] : [];
        });
        expect(parent.conflicts(child.applied, b.revision).map((c) => [c.opIndex, c.reason])).toEqual(expected);
      }),
    );
  });
});
