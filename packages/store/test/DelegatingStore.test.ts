import { describe, expect, it } from 'vitest';
import { Subject } from 'rxjs';
import { Skillbook } from '@cohort/skillbook';
import { MemoryStore } from '../src/index.ts';
import type { Store, StoreSnapshot } from '../src/index.ts';
import { DelegatingStore } from '../src/adapter/index.ts';
import { addOp, makeCommit } from '../src/testing/index.ts';

describe('DelegatingStore', () => {
  it('hands every call to the inner store: appends, loads, history, leases, notices', async () => {
    const inner = new MemoryStore(Skillbook.empty());
    const store = new DelegatingStore(inner);
    const r = await store.append(makeCommit(Skillbook.empty(), [addOp('through the wrapper')]).commit);
    expect(r.ok).toBe(true);
    expect((await store.load()).book.toJSON()).toBe((await inner.load()).book.toJSON());
    expect((await store.load()).book.size).toBe(1);
    expect(store.current()?.revision).toBe(1);
    expect(store.kind).toBe('memory');
    expect(store.notices$).toBe(inner.notices$);
    expect((await store.leaseIds(3)).ok).toBe(true);
    const page = await store.history();
    expect(page.ok && page.commits.length).toBe(1);
    await store.close();
  });

  it("passes on the inner store's books from other writers, and has none when the inner store has none", () => {
    const external = new Subject<StoreSnapshot>();
    const shared: Store = Object.assign(Object.create(new MemoryStore()) as MemoryStore, { external$: external.asObservable() });
    expect(new DelegatingStore(shared).external$).toBe(shared.external$);
    expect(new DelegatingStore(new MemoryStore()).external$).toBeUndefined();
  });
});
