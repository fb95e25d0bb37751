import { describe, expect, it } from 'vitest';
import { Skillbook, createIdAllocator } from '@cohort/skillbook';
import { SimFs } from '@cohort/store';
import { addOp, makeCommit, replayAll } from '@cohort/store/testing';
import { appendGroup } from '../../src/internal/appendGroup.ts';
import { scanJournal } from '../../src/internal/scanJournal.ts';
import { DOC } from '../utils/simStore.ts';
import { openContext } from '../utils/storeContext.ts';

const JOURNAL = `${DOC}.journal`;

describe('appendGroup', () => {
  it('appendGroup - decides each commit in order, writes the accepted ones with one fsync and returns the view after them', async () => {
    const sim = new SimFs();
    const { ctx, view } = await openContext(sim);
    const book = ctx.sequencer.book;
    const ids = createIdAllocator(book.nextId);
    const a = makeCommit(book, [addOp('a')], { ids, basis: 'store' });
    const made = makeCommit(book, [addOp('ghost')], { basis: 'store' });
    // an op on a skill the store does not have: refused, nothing acknowledged that did not land
    const ghost = { commit: { ...made.commit, ops: [{ type: 'UPDATE' as const, section: 'context', skill_id: 'nobody', insight: 'x', at: made.ops[0]?.at ?? '' }] } };
    const b = makeCommit(book, [addOp('b')], { ids, basis: 'store' });
    const syncs = sim.count('sync', JOURNAL);
    const out = await appendGroup(ctx, view, [a.commit, ghost.commit, b.commit]);
    expect(out.results.map((r) => (r.ok ? r.revision : r.error.code))).toEqual([1, 'conflict', 2]);
    expect(out.failed).toBe(false);
    expect(sim.count('sync', JOURNAL) - syncs).toBe(1);
    const scan = scanJournal(sim.read(JOURNAL) ?? new Uint8Array(0));
    expect(scan.entries.map((e) => e.line.rev)).toEqual([1, 2]);
    expect(out.view.journalEnd).toBe(scan.end);
    expect(out.view.journalLines).toBe(view.journalLines + 2);
    expect(out.view.since.map((s) => s.rev)).toEqual([1, 2]);
    expect(ctx.sequencer.book.toJSON()).toBe(replayAll(Skillbook.empty(), [a.ops, b.ops]).toJSON());
  });

  it('appendGroup - a failed write keeps nothing: the sequencer goes back, every accepted commit is refused, the view is unchanged', async () => {
    const sim = new SimFs();
    const { ctx, view } = await openContext(sim);
    const before = ctx.sequencer.book;
    sim.failSync({ path: JOURNAL });
    const out = await appendGroup(ctx, view, [makeCommit(before, [addOp('lost')], { basis: 'store' }).commit]);
    expect(out.failed).toBe(true);
    expect(out.poisoned).toBeNull();
    expect(out.results.map((r) => (r.ok ? 'ok' : r.error.code))).toEqual(['io']);
    expect(out.view).toBe(view);
    expect(ctx.sequencer.book).toBe(before);
    expect(sim.read(JOURNAL)?.length ?? 0).toBe(view.journalEnd);
  });

  it('appendGroup - a group whose lock was taken over is refused as locked and writes nothing', async () => {
    const sim = new SimFs();
    const { ctx, view } = await openContext(sim);
    await ctx.lock.release();
    const out = await appendGroup(ctx, view, [makeCommit(ctx.sequencer.book, [addOp('late')], { basis: 'store' }).commit]);
    expect(out.results.map((r) => (r.ok ? 'ok' : r.error.code))).toEqual(['locked']);
    expect(sim.read(JOURNAL)?.length ?? 0).toBe(view.journalEnd);
  });
});
