import { describe, expect, it } from 'vitest';
import { Skillbook } from '@cohort/skillbook';
import { SimFs, inspectCopies, recoverCopy } from '@cohort/store';
import { addOp, makeCommit } from '@cohort/store/testing';
import { DOC, openSim } from './utils/simStore.ts';

const COPY = '/db/skillbook.recovery-aa00bb11cc22dd33.json';

describe('recoverCopy', () => {
  it('recoverCopy - beside a running store: the skills only in the copy come in through it, the running store takes them in on its next look', async () => {
    const sim = new SimFs({ seed: 1 });
    const { store } = await openSim(sim);
    const r = await store.append(makeCommit(store.book, [addOp('live one'), addOp('live two')]).commit);
    if (!r.ok) throw new Error(r.error.message);
    const copy = makeCommit(Skillbook.empty().reserveIds(40), [addOp('lost one'), addOp('lost two')]).book;
    sim.write(COPY, copy.toJSON());
    expect((await inspectCopies(DOC, store.book, { fs: sim.mount() })).onlyInCopies).toBe(2);
    const mount = sim.mount();
    const recovered = await recoverCopy(DOC, COPY, { fs: mount, process: mount.process, idleCheckpointMs: 0, lockWaitMs: 1000 });
    expect(recovered).toMatchObject({
      ok: true,
      already: 0,
      conflicts: [],
      taken: [
        { id: 'context-00041', issue: 'lost one' },
        { id: 'context-00042', issue: 'lost two' },
      ],
    });
    await store.load();
    expect([...store.book.skills()].map((s) => s.issue)).toEqual(['live one', 'live two', 'lost one', 'lost two']);
    expect((await inspectCopies(DOC, store.book, { fs: sim.mount() })).onlyInCopies).toBe(0);
    // the copy is left as it was
    expect(sim.readText(COPY)).toBe(copy.toJSON());
    await store.close();
  });

  it('recoverCopy - a copy that is not a Skillbook, or a store that does not exist, is a structured error', async () => {
    const sim = new SimFs({ seed: 2 });
    sim.write(COPY, 'not json');
    const mount = sim.mount();
    expect(await recoverCopy(DOC, COPY, { fs: mount, process: mount.process })).toMatchObject({
      ok: false,
      error: { code: 'unreadable_copy', file: COPY },
    });
    sim.write(COPY, Skillbook.empty().toJSON());
    expect(await recoverCopy(DOC, COPY, { fs: mount, process: mount.process })).toMatchObject({
      ok: false,
      error: { code: 'missing_document' },
    });
    expect(sim.readText(DOC)).toBeUndefined();
  });
});
