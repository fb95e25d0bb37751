import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Skillbook } from '@cohort/skillbook';
import type { AppliedOp } from '@cohort/skillbook';
import { CommitSequencer } from '../../../src/internal/sequencing/CommitSequencer.ts';
import type { SequencedCommit } from '../../../src/internal/sequencing/CommitSequencer.ts';
import type { AuditBlock, CommitRecord } from '../../../src/Store.ts';

const AT = '2026-01-01T00:00:00.000000+00:00';
const POOL = ['context-00001', 'context-00002', 'harness-00003', 'context-00009', 'constructor', '__proto__'] as const;

const op = (type: AppliedOp['type'], id: string): AppliedOp =>
  type === 'ADD'
    ? { type, section: 'context', skill_id: id, issue: `issue ${id}`, insight: 'x', at: AT }
    : type === 'TAG'
      ? { type, section: 'context', skill_id: id, metadata: { delta: 1 }, at: AT }
      : type === 'UPDATE'
        ? { type, section: 'context', skill_id: id, insight: 'changed', at: AT }
        : { type, section: 'context', skill_id: id, at: AT };

/** A store book with two skills, one of them changed after revision 1 (a base a commit may be checked from). */
function storeBook(): Skillbook {
  const r = Skillbook.empty().replay([op('ADD', 'context-00001'), op('ADD', 'context-00002')]);
  const moved = r.ok ? r.book.replay([op('UPDATE', 'context-00002')]) : r;
  if (!moved.ok) throw new Error(moved.error.message);
  return moved.book;
}

function commitOf(ops: readonly AppliedOp[], base: number, extra: Partial<CommitRecord>): CommitRecord {
  const half = Math.ceil(ops.length / 2);
  const blocks: AuditBlock[] = [
    { sessionId: 'a', path: ['root', 'a'], ops: ops.slice(0, half), at: 1 },
    { sessionId: 'b', path: ['root', 'b'], name: 'b', ops: ops.slice(half), at: 2 },
  ];
  return { expectedRevision: base, basis: 'store', sessionId: 'root', path: ['root'], entries: blocks, at: 3, ...extra };
}

/** What deciding `commit` says, comparable: the book's document, the blocks, the refusal, or what it threw (a store reports that as invalid_commit). */
function decision(commit: CommitRecord): unknown {
  let d: SequencedCommit;
  try {
    d = new CommitSequencer(storeBook()).apply(commit);
  } catch (e) {
    return { threw: String(e) };
  }
  return d.ok ? { book: d.book.toJSON(), revision: d.book.revision, blocks: d.blocks, idMap: [...d.idMap] } : { error: d.error };
}

describe('CommitSequencer', () => {
  it('a commit of final ids (leased) is decided as one whose every ADD id is explicit: applied, refused, conflicts and all', () => {
    const anOp = fc
      .tuple(fc.constantFrom('ADD', 'ADD', 'TAG', 'UPDATE', 'REMOVE'), fc.constantFrom(...POOL))
      .map(([t, id]) => op(t as AppliedOp['type'], id));
    const bad = fc.constant({ type: 'ADD', section: 'context', at: AT } as unknown as AppliedOp);
    fc.assert(
      fc.property(
        fc.array(fc.oneof({ weight: 9, arbitrary: anOp }, { weight: 1, arbitrary: bad }), { minLength: 1, maxLength: 8 }),
        fc.constantFrom(0, 1, 2),
        (ops, base) => {
          const explicitIds = ops.filter((o) => o.type === 'ADD' && typeof o.skill_id === 'string').map((o) => o.skill_id);
          const leased = decision(commitOf(ops, base, { allocation: 'leased' }));
          expect(leased).toEqual(decision(commitOf(ops, base, { allocation: 'unleased', explicitIds })));
        },
      ),
      { numRuns: 400 },
    );
  });

  it('a leased commit with a taken id and an op that cannot apply is refused for the taken id, as the id check comes first', () => {
    const ops = [
      op('ADD', 'context-00009'),
      { type: 'UPDATE', section: 'context', skill_id: 'context-00001', at: 'not a time' } as AppliedOp,
      op('ADD', 'context-00001'),
    ];
    const d = new CommitSequencer(storeBook()).apply(commitOf(ops, 2, { allocation: 'leased' }));
    expect(d.ok ? null : [d.error.code, d.error.conflicts?.map((c) => [c.opIndex, c.reason])]).toEqual(['conflict', [[2, 'id_exists']]]);
    const dup = new CommitSequencer(storeBook()).apply(
      commitOf([op('ADD', 'context-00009'), op('ADD', 'context-00009')], 2, { allocation: 'leased' }),
    );
    expect(dup.ok ? null : dup.error.conflicts?.map((c) => [c.opIndex, c.reason])).toEqual([[1, 'id_exists']]);
  });

  it("the blocks as applied are copies of the commit's lists, less the ops that changed nothing", () => {
    const ops = [op('ADD', 'context-00009'), op('TAG', 'context-00001'), op('REMOVE', 'context-00002'), op('REMOVE', 'context-00002')];
    const commit = commitOf(ops, 2, { allocation: 'leased' });
    const d = new CommitSequencer(storeBook()).apply(commit);
    if (!d.ok) throw new Error(d.error.message);
    expect(d.blocks.map((b) => [b.sessionId, b.name, b.ops.length])).toEqual([
      ['a', undefined, 2],
      ['b', 'b', 1],
    ]);
    expect(d.blocks.every((b, i) => b.ops !== commit.entries[i]?.ops)).toBe(true);
  });
});
