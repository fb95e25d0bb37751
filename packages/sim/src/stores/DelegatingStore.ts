import type { AppendResult, CommitRecord, Store, StoreSnapshot } from '@cohort/store';

/**
 * A store that hands everything to `inner`; the simulation's wrappers (recording, fault
 * injection, the deliberately broken ack-before-sync) override only what they change.
 */
export class DelegatingStore implements Store {
  constructor(protected readonly inner: Store) {}

  get kind(): string {
    return this.inner.kind;
  }

  get notices$(): Store['notices$'] {
    return this.inner.notices$;
  }

  load(): Promise<StoreSnapshot> {
    return this.inner.load();
  }

  append(commit: CommitRecord): Promise<AppendResult> {
    return this.inner.append(commit);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
