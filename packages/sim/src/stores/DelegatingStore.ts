import type { AppendResult, CommitRecord, HistoryOptions, HistoryPage, LeaseResult, Store, StoreNotice, StoreSnapshot } from '@cohort/store';

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

  get openNotices(): readonly StoreNotice[] {
    return this.inner.openNotices;
  }

  load(): Promise<StoreSnapshot> {
    return this.inner.load();
  }

  current(): StoreSnapshot | null {
    return this.inner.current();
  }

  leaseIds(count: number): Promise<LeaseResult> {
    return this.inner.leaseIds(count);
  }

  history(options?: HistoryOptions): Promise<HistoryPage> {
    return this.inner.history(options);
  }

  append(commit: CommitRecord): Promise<AppendResult> {
    return this.inner.append(commit);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
