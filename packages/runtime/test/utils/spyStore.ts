import { MemoryStore } from '@cohort/store';
import type { AppendResult, CommitRecord, HistoryOptions, HistoryPage, LeaseResult, Store, StoreNotice, StoreSnapshot } from '@cohort/store';

/**
 * A store that hands everything to `inner` (a {@link MemoryStore} by default) and records what
 * the runtime asked of it; a test replaces `lease` or `append` to make the store misbehave.
 */
export class SpyStore implements Store {
  readonly kind = 'spy';
  readonly commits: CommitRecord[] = [];
  readonly leases: number[] = [];
  /** What a lease request does (default: the inner store's). */
  lease: (count: number) => Promise<LeaseResult>;

  constructor(readonly inner: Store = new MemoryStore()) {
    this.lease = (count) => this.inner.leaseIds(count);
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
    this.leases.push(count);
    return this.lease(count);
  }

  history(options?: HistoryOptions): Promise<HistoryPage> {
    return this.inner.history(options);
  }

  append(commit: CommitRecord): Promise<AppendResult> {
    this.commits.push(commit);
    return this.inner.append(commit);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
