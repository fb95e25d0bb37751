import { describe, expect, it } from 'vitest';
import { Skillbook } from '@cohort/skillbook';
import { MemoryStore } from '@cohort/store';
import type { LeaseResult } from '@cohort/store';
import { UnitStore } from '../../src/internal/UnitStore.ts';
import type { Journal } from '../../src/internal/Journal.ts';
import { MemoryJournal } from '../utils/MemoryJournal.ts';

describe('UnitStore', () => {
  it('a unit run again is granted the leases its first run was granted, in the same order', async () => {
    const journal = new MemoryJournal();
    const ids = new MemoryStore();
    const first = new UnitStore(Skillbook.empty(), journal as unknown as Journal, 'u', ids);
    const granted = [await first.leaseIds(10), await first.leaseIds(20)];
    await ids.leaseIds(1000); // others lease meanwhile
    const again = new UnitStore(Skillbook.empty(), journal as unknown as Journal, 'u', ids);
    expect([await again.leaseIds(10), await again.leaseIds(20)]).toEqual(granted);
    // past what was recorded: a new lease, recorded in turn
    const third = await again.leaseIds(5);
    expect(third).toMatchObject({ ok: true, lease: { from: expect.any(Number) as number } });
    expect(journal.rows('u')['lease:2']).toEqual(third);
  });

  it('a refused lease is not recorded and moves to no next key', async () => {
    const journal = new MemoryJournal();
    let refuse = true;
    const ids = new MemoryStore();
    const flaky = Object.assign(Object.create(ids) as MemoryStore, {
      leaseIds: async (count: number): Promise<LeaseResult> =>
        refuse ? { ok: false, error: { code: 'io', message: 'down' } } : ids.leaseIds(count),
    });
    const store = new UnitStore(Skillbook.empty(), journal as unknown as Journal, 'u', flaky);
    expect(await store.leaseIds(10)).toMatchObject({ ok: false, error: { code: 'io' } });
    refuse = false;
    const granted = await store.leaseIds(10);
    expect(granted.ok).toBe(true);
    expect(journal.rows('u')).toEqual({ 'lease:0': granted });
  });
});
