import { describe, expect, it } from 'vitest';
import { Skillbook, createIdAllocator } from '@cohort/skillbook';
import { SimFs } from '@cohort/store';
import { addOp, makeCommit, replayAll } from '@cohort/store/testing';
import type { CommitRecord } from '@cohort/store';
import { appendGroup } from '../../../src/internal/worker/appendGroup.ts';
import type { GroupItem, ItemResult } from '../../../src/internal/sequencing/GroupCommitQueue.ts';
import { scanJournal } from '../../../src/internal/journal/scanJournal.ts';
import { DOC } from '../../utils/simStore.ts';
import { openContext } from '../../utils/storeContext.ts';

const JOURNAL = `${DOC}.journal`;

const append = (commit: CommitRecord): GroupItem => ({ kind: 'append', commit });
/** A result as its revision, its lease's start, or its refusal's code. */
const outcome = (r: ItemResult): number | string => {
  if (!r.result.ok) return r.result.error.code;
  return r.kind === 'append' ? r.result.revision : r.result.lease.from;
};

describe('appendGroup', () => {
  it('appendGroup - decides each commit in order, writes the accepted ones with one fsync and returns the view after them', async () => {
    const sim = new SimFs();
    const { ctx, view } = await openContext(sim);
    const book = ctx.sequencer.book;
    const ids = createIdAllocator(book.nextId);
    const a = makeCommit(book, [addOp('a')], { ids, basis: 'store' });
    const made = makeCommit(book, [addOp('ghost')], { basis: 'store' });
    // an op on a skill the store does not have: refused, nothing acknowledged that did not land
    const ghostOps = [{ type: 'UPDATE' as const, section: 'context', skill_id: 'nobody', insight: 'x', at: made.ops[0]?.at ?? '' }];
    const ghost = { commit: { ...made.commit, entries: [{ sessionId: 'ghost', path: ['ghost'], at: 0, ops: ghostOps }] } };
    const b = makeCommit(book, [addOp('b')], { ids, basis: 'store' });
    const syncs = sim.count('sync', JOURNAL);
    const out = await appendGroup(ctx, view, [a.commit, ghost.commit, b.commit].map(append));
    expect(out.results.map(outcome)).toEqual([1, 'conflict', 2]);
    expect(out.failed).toBe(false);
    expect(sim.count('sync', JOURNAL) - syncs).toBe(1);
    const scan = scanJournal(sim.read(JOURNAL) ?? new Uint8Array(0));
    expect(scan.entries.map((e) => e.line.rev)).toEqual([1, 2]);
    expect(out.view.journalEnd).toBe(scan.end);
    // one write: its group header and the two commits
    expect(out.view.journalLines).toBe(view.journalLines + 3);
    expect(out.view.since.map((s) => s.rev)).toEqual([1, 2]);
    expect(ctx.sequencer.book.toJSON()).toBe(replayAll(Skillbook.empty(), [a.ops, b.ops]).toJSON());
  });

  it('appendGroup - a failed write keeps nothing: the sequencer goes back, every accepted commit is refused, the view is unchanged', async () => {
    const sim = new SimFs();
    const { ctx, view } = await openContext(sim);
    const before = ctx.sequencer.book;
    sim.failSync({ path: JOURNAL });
    const out = await appendGroup(ctx, view, [
      append(makeCommit(before, [addOp('lost')], { basis: 'store' }).commit),
      { kind: 'lease', count: 5 },
    ]);
    expect(out.failed).toBe(true);
    expect(out.poisoned).toBeNull();
    expect(out.results.map(outcome)).toEqual(['io', 'io']);
    expect(ctx.sequencer.leaseRecord.through).toBe(0);
    expect(out.view).toBe(view);
    expect(ctx.sequencer.book).toBe(before);
    expect(sim.read(JOURNAL)?.length ?? 0).toBe(view.journalEnd);
  });

  it("appendGroup - a lease shares the group's write: its record is chained like a commit and the book's next_id moves past it", async () => {
    const sim = new SimFs();
    const { ctx, view } = await openContext(sim);
    const out = await appendGroup(ctx, view, [
      { kind: 'lease', count: 10 },
      append(makeCommit(ctx.sequencer.book, [addOp('after')], { basis: 'store' }).commit),
    ]);
    expect(out.results.map(outcome)).toEqual([1, 1]);
    expect(ctx.sequencer.book.nextId).toBe(11);
    expect(ctx.sequencer.book.get('context-00011')?.issue).toBe('after');
    const scan = scanJournal(sim.read(JOURNAL) ?? new Uint8Array(0));
    expect(scan.entries.map((e) => e.line.t)).toEqual(['lease', 'commit']);
    expect(scan.tail).toBeNull();
  });

  it('appendGroup - a group whose lock was taken over is refused as locked and writes nothing', async () => {
    const sim = new SimFs();
    const { ctx, view } = await openContext(sim);
    await ctx.lock.release();
    const out = await appendGroup(ctx, view, [append(makeCommit(ctx.sequencer.book, [addOp('late')], { basis: 'store' }).commit)]);
    expect(out.results.map(outcome)).toEqual(['locked']);
    expect(sim.read(JOURNAL)?.length ?? 0).toBe(view.journalEnd);
  });
});
