import type { Skillbook } from '@cohort/skillbook';
import { MemoryStore } from '@cohort/store';
import { DelegatingStore } from '@cohort/store/adapter';
import type { LeaseResult, Store } from '@cohort/store';
import type { Records } from './Records.ts';
import { retryStoreIo } from './retry.ts';

/**
 * The store a unit's runtime runs on: its view book in memory (a unit's commit goes to its
 * parent, not to a store), and id leases from the real store, each recorded under the unit's
 * `lease:<n>` — so a unit run again after a crash allocates the same ids in the same order,
 * and the ids its sessions were told are the ids their skills get.
 */
export class UnitStore extends DelegatingStore {
  private granted = 0;

  constructor(
    view: Skillbook,
    private readonly journal: Records,
    private readonly unitId: string,
    private readonly ids: Store,
  ) {
    super(new MemoryStore(view));
  }

  override async leaseIds(count: number): Promise<LeaseResult> {
    // the runtime asks for one lease at a time; only a granted lease moves to the next key
    const key = `lease:${this.granted}`;
    const found = await this.journal.get(this.unitId, key);
    if (found !== undefined) {
      this.granted++;
      return found as LeaseResult;
    }
    // an unused lease is a gap in the ids, never a reuse: safe to ask again after a lost connection
    const asked = await retryStoreIo(() => this.ids.leaseIds(count));
    if (!asked.ok) return asked;
    const stands = (await this.journal.record(this.unitId, key, asked)) as LeaseResult;
    this.granted++;
    return stands;
  }
}
