import { describe, expect, it } from 'vitest';
import { SimFs } from '@cohort/store';
import { ManualClock, addOp, makeCommit } from '@cohort/store/testing';
import { appendGroup } from '../../../src/internal/worker/appendGroup.ts';
import { Checkpointer } from '../../../src/internal/checkpoint/Checkpointer.ts';
import type { DiskView } from '../../../src/internal/disk/DiskView.ts';
import type { StoreContext } from '../../../src/internal/worker/StoreContext.ts';
import { DOC } from '../../utils/simStore.ts';
import { openContext } from '../../utils/storeContext.ts';

async function commits(ctx: StoreContext, view: DiskView, n: number): Promise<DiskView> {
  let v = view;
  for (let i = 0; i < n; i += 1)
    v = (
      await appendGroup(ctx, v, [{ kind: 'append', commit: makeCommit(ctx.sequencer.book, [addOp(`c${i}`)], { basis: 'store' }).commit }])
    ).view;
  return v;
}

describe('Checkpointer', () => {
  it('due - a checkpoint is due once checkpointEvery commits are past the document and the journal outweighs its share of it', async () => {
    const { ctx, view } = await openContext(new SimFs(), { checkpointEvery: 3, checkpointJournalRatio: 0 });
    const checkpointer = new Checkpointer(ctx);
    expect(await checkpointer.due(await commits(ctx, view, 2))).toBe(false);
    expect(await checkpointer.due(await commits(ctx, view, 3))).toBe(true);
    const weighed = await openContext(new SimFs(), { checkpointEvery: 1, checkpointJournalRatio: 1000 });
    expect(await new Checkpointer(weighed.ctx).due(await commits(weighed.ctx, weighed.view, 3))).toBe(false);
  });

  it("write - rewrites the document from the sequencer's book and returns a view with nothing past it; nothing past it writes nothing", async () => {
    const sim = new SimFs();
    const { ctx, view } = await openContext(sim);
    const checkpointer = new Checkpointer(ctx);
    const quiet = await checkpointer.write(view, 'idle');
    expect(quiet).toEqual({ ok: true, view });
    const after = await commits(ctx, view, 2);
    const written = await checkpointer.write(after, 'threshold');
    expect(written.ok && written.view.since).toEqual([]);
    expect(written.ok && written.view.ledger.revision).toBe(2);
    expect(sim.readText(DOC)).toBe(ctx.sequencer.book.toJSON());
  });

  it('idle timer - fires once after idleCheckpointMs without another arm; disarming stops it', async () => {
    const clock = new ManualClock();
    const { ctx } = await openContext(new SimFs(), { clock, idleCheckpointMs: 100 });
    const checkpointer = new Checkpointer(ctx);
    let fired = 0;
    checkpointer.armIdle(() => (fired += 1));
    clock.advance(60);
    checkpointer.armIdle(() => (fired += 1));
    clock.advance(60);
    expect(fired).toBe(0);
    clock.advance(40);
    expect(fired).toBe(1);
    checkpointer.armIdle(() => (fired += 1));
    checkpointer.disarmIdle();
    clock.advance(1000);
    expect(fired).toBe(1);
  });
});
