import { describe, expect, it } from 'vitest';
import { MemoryStore } from '@cohort/store';
import { addOp, describeStoreConformance, makeCommit, readHistory } from '@cohort/store/testing';

describeStoreConformance('MemoryStore', async (initial) => ({
  durable: false,
  open: async () => new MemoryStore(initial),
}));

describe('MemoryStore', () => {
  it('historyLimit - keeps the newest commits of its history, however many there were', async () => {
    const store = new MemoryStore(undefined, { historyLimit: 3 });
    for (let i = 0; i < 10; i += 1) {
      const r = await store.append(makeCommit(store.current().book, [addOp(`c${i}`)]).commit);
      expect(r.ok).toBe(true);
    }
    expect((await readHistory(store, 2)).map((c) => c.revision)).toEqual([8, 9, 10]);
    expect(() => new MemoryStore(undefined, { historyLimit: 0 })).toThrow(RangeError);
    await store.close();
  });
});
