import { afterEach, describe } from 'vitest';
import type { Skillbook } from '@cohort/skillbook';
import type { Store } from '../Store.ts';
import { appendCases } from './conformance/appendCases.ts';
import type { ConformanceContext, StoreFactory, StoreHarness } from './conformance/ConformanceContext.ts';
import { seeded } from './conformance/ConformanceContext.ts';
import { historyCases } from './conformance/historyCases.ts';
import { idCases } from './conformance/idCases.ts';

export type { StoreFactory, StoreHarness } from './conformance/ConformanceContext.ts';

/**
 * The Store conformance suite: every adapter must pass it — appends (compare-and-set,
 * conflicts, the speculative basis), ids (leases, final ids, explicit ids, prototype names as
 * ids) and history (the per-session audit, paged and replayable). Call it inside a test file
 * with a factory that creates a fresh harness per test.
 *
 * @example
 * ```ts
 * describeStoreConformance('MemoryStore', async (initial) => ({ durable: false, open: async () => new MemoryStore(initial) }));
 * ```
 */
export function describeStoreConformance(name: string, factory: StoreFactory): void {
  describe(`${name} conforms to the Store interface`, () => {
    const open: { harness: StoreHarness; store: Store }[] = [];
    afterEach(async () => {
      for (const o of open.splice(0)) {
        await o.store.close();
        await o.harness.cleanup?.();
      }
    });
    const context: ConformanceContext = {
      factory,
      async start(initial: Skillbook = seeded()) {
        const harness = await factory(initial);
        const entry = { harness, store: await harness.open() };
        open.push(entry);
        return entry;
      },
    };
    describe('appends', () => appendCases(context));
    describe('ids', () => idCases(context));
    describe('history', () => historyCases(context));
  });
}
