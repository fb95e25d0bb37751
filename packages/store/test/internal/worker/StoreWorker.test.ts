import { describe, expect, it } from 'vitest';
import { createIdAllocator } from '@cohort/skillbook';
import { SimFs } from '@cohort/store';
import { addOp, makeCommit } from '@cohort/store/testing';
import { StoreWorker } from '../../../src/internal/worker/StoreWorker.ts';
import { DOC } from '../../utils/simStore.ts';
import { openContext } from '../../utils/storeContext.ts';

const JOURNAL = `${DOC}.journal`;

describe('StoreWorker', () => {
  it('submit - appends submitted together are one group: one journal fsync, each resolved with its own revision', async () => {
    const sim = new SimFs();
    const { ctx, view } = await openContext(sim);
    await ctx.lock.release();
    const worker = new StoreWorker(ctx, view);
    const ids = createIdAllocator(ctx.sequencer.book.nextId);
    const made = Array.from({ length: 5 }, (_, i) => makeCommit(ctx.sequencer.book, [addOp(`g${i}`)], { ids, basis: 'store' }));
    const syncs = sim.count('sync', JOURNAL);
    const results = await Promise.all(made.map((m) => worker.submit(m.commit)));
    expect(results.map((r) => (r.ok ? r.revision : -1))).toEqual([1, 2, 3, 4, 5]);
    expect(sim.count('sync', JOURNAL) - syncs).toBe(1);
    await worker.close();
  });

  it('close - waits for queued appends, checkpoints, and refuses what comes after with code closed', async () => {
    const sim = new SimFs();
    const { ctx, view } = await openContext(sim);
    await ctx.lock.release();
    const worker = new StoreWorker(ctx, view);
    const queued = worker.submit(makeCommit(ctx.sequencer.book, [addOp('queued')], { basis: 'store' }).commit);
    await worker.close();
    expect((await queued).ok).toBe(true);
    expect(sim.readText(DOC)).toBe(ctx.sequencer.book.toJSON());
    const late = await worker.submit(makeCommit(ctx.sequencer.book, [addOp('late')]).commit);
    expect(late.ok ? null : late.error.code).toBe('closed');
  });

  it('poison - a journal write that cannot be undone refuses every later append until the store is reopened', async () => {
    const sim = new SimFs();
    const { ctx, view } = await openContext(sim);
    await ctx.lock.release();
    const worker = new StoreWorker(ctx, view);
    sim.failSync({ path: JOURNAL });
    sim.crashOn((op) => op.kind === 'truncate' && op.path === JOURNAL, { mode: 'process' });
    const first = await worker.submit(makeCommit(ctx.sequencer.book, [addOp('torn')], { basis: 'store' }).commit);
    expect(first.ok ? null : first.error.message).toMatch(/could not be undone/);
    const next = await worker.submit(makeCommit(ctx.sequencer.book, [addOp('next')], { basis: 'store' }).commit);
    expect(next.ok ? null : next.error.message).toMatch(/could not be undone/);
  });
});
