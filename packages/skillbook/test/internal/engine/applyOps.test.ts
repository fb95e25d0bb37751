import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Skillbook } from '../../../src/index.ts';
import type { AppliedOp, BatchResult, DraftBatchResult, SkillbookDraft } from '../../../src/index.ts';
import { isProducedOp } from '../../../src/internal/engine/replayCache.ts';
import { book, rawBatch, tickingClock } from '../../utils/arbitraries.ts';

const clock = tickingClock(Date.UTC(2027, 0, 1));

/** Copies of ops made elsewhere (JSON): they take the general path, which parses and applies each op. */
const copied = (ops: readonly AppliedOp[]): AppliedOp[] => JSON.parse(JSON.stringify(ops)) as AppliedOp[];

function applied(b: Skillbook, operations: readonly object[]): { book: Skillbook; ops: AppliedOp[] } {
  const r = b.applyBatch({ operations }, { clock });
  if (!r.ok) throw new Error(r.error.message);
  return { book: r.book, ops: r.applied };
}

/** Everything a replay decides, comparable across the two paths. */
function outcome(r: BatchResult | DraftBatchResult, b: Skillbook | SkillbookDraft): unknown {
  if (!r.ok) return { error: r.error };
  const revisions = [...b.skills()].map((s) => [s.id, b.revisionsOf(s.id)]);
  return { applied: r.applied, skipped: r.skipped, revision: b.revision, nextId: b.nextId, revisions, skills: [...b.skills()] };
}

/** Replays `ops` as they are and as copies, on the book and on a draft with a journal of its own; expects the same everywhere. */
function expectSameAsCopies(target: Skillbook, ops: readonly AppliedOp[]): BatchResult & { error?: unknown } {
  const reused = target.replay(ops);
  const full = target.replay(copied(ops));
  expect(outcome(reused, reused.book)).toEqual(outcome(full, full.book));
  expect(reused.book.toJSON()).toBe(full.book.toJSON());
  const drafts = [target.edit(), target.edit()];
  for (const d of drafts)
    d.applyBatch({ operations: [{ type: 'ADD', section: 'harness', skill_id: 'journal-1', issue: 'j' }] }, { clock: tickingClock() });
  const [lean, general] = drafts as [SkillbookDraft, SkillbookDraft];
  expect(outcome(lean.replay(ops), lean)).toEqual(outcome(general.replay(copied(ops)), general));
  expect(lean.finish().toJSON()).toBe(general.finish().toJSON());
  return reused;
}

describe('applyOps, replaying - ops this package made skip parsing and reuse what they did, with the same results', () => {
  const start = applied(Skillbook.empty(), [
    { type: 'ADD', section: 'harness', issue: 'a' },
    { type: 'ADD', section: 'context', issue: 'b', insight: 'x' },
  ]).book;

  it('a commit of ADDs shares the skills it made: the same objects at every level', () => {
    const child = applied(start, [
      { type: 'ADD', section: 'harness', issue: 'c' },
      { type: 'ADD', section: 'context', issue: 'd', insight: 'y' },
    ]);
    const r = expectSameAsCopies(start, child.ops);
    expect(r.ok && r.applied.every((op, i) => op === child.ops[i])).toBe(true);
    for (const op of child.ops) expect(r.book.get(op.skill_id)).toBe(child.book.get(op.skill_id));
  });

  it('a TAG after a concurrent TAG of the same skill is applied again, on the skill as it is now (both count)', () => {
    const tag = [{ type: 'TAG', skill_id: 'harness-00001', metadata: { delta: 1 } }];
    const mine = applied(start, tag);
    const moved = applied(start, tag).book;
    const r = expectSameAsCopies(moved, mine.ops);
    expect(r.book.get('harness-00001')?.helpful_count).toBe(2);
    expect(r.book.get('harness-00001')).not.toBe(mine.book.get('harness-00001'));
    expect(r.ok && isProducedOp(r.applied[0])).toBe(true);
  });

  it('an UPDATE of a skill changed meanwhile is applied again on the changed skill (last writer wins)', () => {
    const mine = applied(start, [{ type: 'UPDATE', skill_id: 'context-00002', insight: 'mine' }]);
    const moved = applied(start, [{ type: 'UPDATE', skill_id: 'context-00002', issue: 'theirs' }]).book;
    const r = expectSameAsCopies(moved, mine.ops);
    expect([r.book.get('context-00002')?.issue, r.book.get('context-00002')?.insight]).toEqual(['theirs', 'mine']);
  });

  it('an ADD of an id that exists is refused with the same error, and the draft keeps none of the ops before it', () => {
    const child = applied(start, [
      { type: 'ADD', section: 'harness', issue: 'c' },
      { type: 'TAG', skill_id: 'harness-00001' },
    ]);
    const taken = applied(start, [{ type: 'ADD', section: 'harness', issue: 'took it' }]).book;
    const ops = [...child.ops, ...child.ops.slice(0, 1)];
    const r = expectSameAsCopies(start, ops);
    expect(r.ok ? null : r.error).toMatchObject({ code: 'duplicate_skill_id', opIndex: 2 });
    expect(taken.replay(child.ops).ok).toBe(false);
    const draft = start.edit();
    draft.applyBatch({ operations: [{ type: 'ADD', section: 'harness', skill_id: 'own-1', issue: 'own' }] }, { clock });
    // the draft has a journal of its own now, which the replay writes into in place and must undo
    const before = [...draft.skills()].map((s) => [s, draft.revisionsOf(s.id)]);
    expect(draft.replay(ops).ok).toBe(false);
    expect([draft.has(child.ops[0]?.skill_id ?? ''), draft.revision]).toEqual([false, 2]);
    expect([...draft.skills()].map((s) => [s, draft.revisionsOf(s.id)])).toEqual(before);
  });

  it('a list mixing made ops with copies, or with hand-written ops, gives what the copies alone give', () => {
    const child = applied(start, [
      { type: 'ADD', section: 'harness', issue: 'c' },
      { type: 'TAG', skill_id: 'context-00002' },
    ]);
    const handWritten = {
      type: 'REMOVE',
      section: 'harness',
      skill_id: 'harness-00001',
      at: '2027-01-02T00:00:00.000000+00:00',
    } as AppliedOp;
    expectSameAsCopies(start, [child.ops[0] as AppliedOp, ...copied(child.ops.slice(1))]);
    expectSameAsCopies(start, [...child.ops, handWritten]);
    const bad = { type: 'ADD', section: 'harness' } as unknown as AppliedOp;
    expect(expectSameAsCopies(start, [...child.ops, bad]).error).toMatchObject({ code: 'invalid_operation', opIndex: 2 });
    // a refusal among made ops does not hide a bad op after them: the list is checked first, as the copies are
    const [add] = child.ops as [AppliedOp];
    expect(expectSameAsCopies(start, [add, add, bad]).error).toMatchObject({ code: 'invalid_operation', opIndex: 2 });
    expect(expectSameAsCopies(start, [add, add]).error).toMatchObject({ code: 'duplicate_skill_id', opIndex: 1 });
    expect((start.replay('nope' as unknown as AppliedOp[]) as BatchResult & { ok: false }).error.code).toBe('invalid_batch');
  });

  it('property: on a book that moved on, a replay of made ops gives what a replay of their copies gives, also on a draft', () => {
    const meanwhile = fc.array(
      fc.tuple(
        fc.nat(),
        fc.constantFrom(
          { type: 'TAG', metadata: { delta: 1 } },
          { type: 'UPDATE', insight: 'changed' },
          { type: 'REMOVE' },
          { type: 'ADD', section: 'harness', issue: 'took the id' },
        ),
      ),
      { maxLength: 4 },
    );
    fc.assert(
      fc.property(book, rawBatch, meanwhile, fc.array(fc.boolean(), { maxLength: 8 }), (old, batch, picked, mask) => {
        const result = old.applyBatch(batch, { clock });
        if (!result.ok || result.applied.length === 0) return;
        const touched = picked.map(([i, op]) => ({ ...op, skill_id: result.applied[i % result.applied.length]?.skill_id }));
        const moved = old.applyBatch({ operations: touched }, { clock }).book;
        expectSameAsCopies(moved, result.applied);
        // some ops copied: the whole list takes the general path, op by op reusing what it can
        expectSameAsCopies(
          moved,
          result.applied.map((op, i) => (mask[i] ? (copied([op])[0] as AppliedOp) : op)),
        );
        // replayed twice on one draft: the second finds its own ADDs and is refused, leaving the first
        const draft = moved.edit();
        const first = draft.replay(result.applied);
        const after = [...draft.skills()].map((s) => [s, draft.revisionsOf(s.id)]);
        const again = draft.replay(result.applied);
        if (first.ok && result.applied.some((op) => op.type === 'ADD')) expect(again.ok).toBe(false);
        if (!again.ok) expect([...draft.skills()].map((s) => [s, draft.revisionsOf(s.id)])).toEqual(after);
      }),
      { numRuns: 300 },
    );
  });
});
