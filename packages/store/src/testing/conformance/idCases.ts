import { expect, it } from 'vitest';
import { createIdAllocator, formatSkillId } from '@cohort/skillbook';
import type { IdAllocatorHandle, Skillbook } from '@cohort/skillbook';
import type { IdLease, Store } from '../../Store.ts';
import type { StoreNotice } from '../../StoreNotice.ts';
import { addOp, makeCommit } from '../commitFixtures.ts';
import type { ConformanceContext } from './ConformanceContext.ts';
import { ok, seeded } from './ConformanceContext.ts';

/** An allocator that draws only from `lease` (it throws past its end: a test bug). */
export function leaseAllocator(lease: IdLease): IdAllocatorHandle {
  const ids = createIdAllocator(lease.from - 1);
  return {
    allocate: (section) => {
      if (ids.next + 1 >= lease.to) throw new Error(`the lease ${lease.from}–${lease.to - 1} is used up`);
      return ids.allocate(section);
    },
    get next() {
      return ids.next;
    },
    observe: () => undefined,
  };
}

/** Names of `Object.prototype` members (and `__proto__`): ids must be plain strings everywhere. */
export const PROTOTYPE_IDS = ['toString', 'constructor', '__proto__', 'hasOwnProperty', 'valueOf'] as const;

async function lease(store: Store, count: number): Promise<IdLease> {
  return ok(await store.leaseIds(count), 'the lease').lease;
}

/** Ids: leases, final ids, explicit ids, clients that do not lease, and ids that are prototype names. */
export function idCases({ start, factory }: ConformanceContext): void {
  it("leaseIds - leases never overlap, start past the book's next_id, and the book's next_id moves past them", async () => {
    const { store } = await start();
    const before = (await store.load()).book.nextId;
    const a = await lease(store, 10);
    const [b, c] = await Promise.all([lease(store, 5), lease(store, 1)]);
    expect(a.from).toBeGreaterThan(before);
    expect([a.to - a.from, (b?.to ?? 0) - (b?.from ?? 0), (c?.to ?? 0) - (c?.from ?? 0)]).toEqual([10, 5, 1]);
    const numbers = [a, b, c].flatMap((l) => (l ? Array.from({ length: l.to - l.from }, (_, i) => l.from + i) : []));
    expect(new Set(numbers).size).toBe(16);
    const book = (await store.load()).book;
    expect(book.nextId).toBeGreaterThanOrEqual(Math.max(...numbers));
    // an allocation from the book itself, as ACE's from its document, starts past every lease
    expect(createIdAllocator(book.nextId).allocate('context')).toBe(formatSkillId('context', Math.max(...numbers) + 1));
  });

  it('leaseIds - a count that is not a positive integer of at most a million is refused as invalid_request', async () => {
    const { store } = await start();
    for (const count of [0, -1, 1.5, Number.NaN, 2_000_000]) {
      const r = await store.leaseIds(count);
      expect(r.ok ? null : r.error.code).toBe('invalid_request');
    }
  });

  it('leaseIds - a reopened store never grants a number again', async () => {
    const harness = await factory(seeded());
    const store = await harness.open();
    const first = await lease(store, 100);
    await store.close();
    if (harness.durable) {
      const again = await harness.open();
      const second = await lease(again, 100);
      expect(second.from).toBeGreaterThanOrEqual(first.to);
      expect((await again.load()).book.nextId).toBeGreaterThanOrEqual(second.to - 1);
      await again.close();
    }
    await harness.cleanup?.();
  });

  it('final ids - an ADD id drawn from a lease lands as it is; one another commit took is refused (id_exists), never renumbered', async () => {
    const { store } = await start();
    const snap = await store.load();
    const ids = leaseAllocator(await lease(store, 10));
    const mine = makeCommit(snap.book, [addOp('mine')], { ids, basis: 'store', allocation: 'leased' });
    const id = mine.ops[0]?.skill_id ?? '';
    const landed = ok(await store.append(mine.commit));
    expect(landed.book.get(id)?.issue).toBe('mine');
    expect(landed.idMap).toBeUndefined();
    const again = makeCommit(snap.book, [addOp('same leased id')], {
      ids: leaseAllocator({ from: ids.next, to: ids.next + 1 }),
      basis: 'store',
      allocation: 'leased',
    });
    expect(again.ops[0]?.skill_id).toBe(id);
    const refused = await store.append(again.commit);
    expect(refused.ok ? null : refused.error.conflicts?.map((c) => [c.skillId, c.reason])).toEqual([[id, 'id_exists']]);
    expect((await store.load()).book.get(id)?.issue).toBe('mine');
  });

  it('explicit ids - an explicit id that was taken is an id_exists conflict', async () => {
    const { store } = await start();
    const snap = await store.load();
    const op = { ...addOp('explicit'), skill_id: 'context-00042' };
    await store.append(makeCommit(snap.book, [op], { basis: 'store' }).commit);
    const rb = await store.append(
      makeCommit(snap.book, [{ ...op, issue: 'again' }], { basis: 'store', explicitIds: ['context-00042'] }).commit,
    );
    expect(rb.ok ? null : rb.error.conflicts?.[0]?.reason).toBe('id_exists');
  });

  it('clients that do not lease - an unleased id that falls in a lease is renumbered even when free, so the lease holder never meets it', async () => {
    const { store } = await start();
    const snap = await store.load();
    const stale = makeCommit(snap.book, [addOp('stale counter')], { basis: 'store' });
    const granted = await lease(store, 10);
    const id = stale.ops[0]?.skill_id ?? '';
    expect(granted.from).toBeLessThanOrEqual(Number(id.split('-')[1]));
    const landed = ok(await store.append(stale.commit));
    const moved = landed.idMap?.get(id) ?? '';
    expect(landed.book.get(moved)?.issue).toBe('stale counter');
    expect(Number(moved.split('-')[1])).toBeGreaterThanOrEqual(granted.to);
  });

  it('clients that do not lease - an allocated id outside every lease that another commit took is renumbered, in the result and a notice', async () => {
    const { store } = await start();
    const notices: StoreNotice[] = [];
    const sub = store.notices$.subscribe((n) => notices.push(n));
    const snap = await store.load();
    const a = makeCommit(snap.book, [addOp('mine')], { basis: 'store' });
    const b = makeCommit(
      snap.book,
      [addOp('theirs'), { type: 'TAG', section: 'context', skill_id: 'context-00004', metadata: { delta: 1 } }],
      { basis: 'store' },
    );
    const taken = b.ops[0]?.skill_id ?? '';
    expect(a.ops[0]?.skill_id).toBe(taken);
    await store.append(a.commit);
    const rb = ok(await store.append(b.commit));
    sub.unsubscribe();
    const fresh = rb.idMap?.get(taken) ?? '';
    expect(rb.book.get(taken)?.issue).toBe('mine');
    expect(rb.book.get(fresh)?.issue).toBe('theirs');
    expect(rb.book.get(fresh)?.helpful_count).toBe(1);
    expect(notices.filter((n) => n.type === 'store.ids_remapped')).toHaveLength(1);
  });

  it('any string is an id - prototype member names are added, updated, tagged and removed like any id, also from older bases', async () => {
    const { store } = await start();
    const snap = await store.load();
    const adds = PROTOTYPE_IDS.map((id) => ({ ...addOp(`skill ${id}`), skill_id: id }));
    let book: Skillbook = ok(await store.append(makeCommit(snap.book, adds, { explicitIds: [...PROTOTYPE_IDS] }).commit)).book;
    const base = book;
    for (const [i, id] of PROTOTYPE_IDS.entries()) {
      const ops = [
        { type: 'UPDATE', section: 'context', skill_id: id, insight: `changed ${i}` },
        { type: 'TAG', section: 'context', skill_id: id, metadata: { delta: 1 } },
        ...(i % 2 === 0 ? [{ type: 'REMOVE', section: 'context', skill_id: id }] : []),
      ];
      // every other commit is based on the book before the others: checked against what changed since
      book = ok(await store.append(makeCommit(i % 2 === 0 ? book : base, ops, { basis: 'store' }).commit)).book;
    }
    const final = (await store.load()).book;
    expect(PROTOTYPE_IDS.map((id) => [final.get(id)?.insight, final.get(id)?.helpful_count, final.get(id)?.active])).toEqual(
      PROTOTYPE_IDS.map((_, i) => [`changed ${i}`, 1, i % 2 !== 0]),
    );
    const clash = await store.append(
      makeCommit(snap.book, [{ ...addOp('again'), skill_id: '__proto__' }], { basis: 'store', explicitIds: ['__proto__'] }).commit,
    );
    expect(clash.ok ? null : clash.error.conflicts?.[0]?.reason).toBe('id_exists');
  });
}
