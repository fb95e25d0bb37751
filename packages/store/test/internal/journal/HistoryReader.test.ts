import { describe, expect, it } from 'vitest';
import { SimFs } from '@cohort/store';
import { addOp, makeCommit } from '@cohort/store/testing';
import { HistoryReader } from '../../../src/internal/journal/HistoryReader.ts';
import { storePaths } from '../../../src/internal/disk/StorePaths.ts';
import { DOC, openSim } from '../../utils/simStore.ts';

describe('HistoryReader', () => {
  it('page - reads a page at a time from a place it noted, and the pages join up to every commit', async () => {
    const sim = new SimFs();
    const { store } = await openSim(sim, { checkpointEvery: 100_000 });
    let book = store.book;
    for (let i = 0; i < 600; i += 1) {
      const r = await store.append(makeCommit(book, [addOp(`c${i}`)], { sessionId: `s${i}` }).commit);
      if (!r.ok) throw new Error(r.error.message);
      book = r.book;
    }
    const reader = new HistoryReader(sim.mount(), storePaths(DOC));
    const all: number[] = [];
    let after: number | undefined;
    for (;;) {
      const page = await reader.page(Number.MAX_SAFE_INTEGER, { ...(after === undefined ? {} : { after }), limit: 70 });
      if (!page.ok) throw new Error(page.error.message);
      all.push(...page.commits.map((c) => c.revision));
      if (page.next === null) break;
      after = page.next;
    }
    expect(all).toEqual(Array.from({ length: 600 }, (_, i) => i + 1));
    const tail = await reader.page(Number.MAX_SAFE_INTEGER, { after: 590, limit: 5 });
    expect(tail.ok && [tail.commits.map((c) => c.sessionId), tail.next]).toEqual([['s590', 's591', 's592', 's593', 's594'], 595]);
    await store.close();
  });

  it('page - a damaged journal is refused as a value naming the line', async () => {
    const sim = new SimFs();
    const { store } = await openSim(sim);
    await store.append(makeCommit(store.book, [addOp('one')]).commit);
    await store.append(makeCommit(store.book, [addOp('two')]).commit);
    await store.close();
    const bytes = sim.read(`${DOC}.journal`) ?? new Uint8Array(0);
    const damaged = bytes.slice();
    damaged[5] = 0x7a;
    sim.write(`${DOC}.journal`, damaged);
    const page = await new HistoryReader(sim.mount(), storePaths(DOC)).page(Number.MAX_SAFE_INTEGER);
    expect(page.ok ? null : page.error).toMatchObject({ code: 'io', message: expect.stringContaining('line 1') });
  });
});
