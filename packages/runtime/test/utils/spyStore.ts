import { MemoryStore } from '@cohort/store';
import type { AppendResult, CommitRecord, LeaseResult, Store } from '@cohort/store';
import { DelegatingStore } from '@cohort/store/adapter';

/**
 * A store that hands everything to `inner` (a {@link MemoryStore} by default) and records what
 * the runtime asked of it; a test replaces `lease` or `append` to make the store misbehave.
 */
export class SpyStore extends DelegatingStore {
  readonly commits: CommitRecord[] = [];
  readonly leases: number[] = [];
  /** What a lease request does (default: the inner store's). */
  lease: (count: number) => Promise<LeaseResult>;

  constructor(inner: Store = new MemoryStore()) {
    super(inner);
    this.lease = (count) => this.inner.leaseIds(count);
  }

  override get kind(): string {
    return 'spy';
  }

  override leaseIds(count: number): Promise<LeaseResult> {
    this.leases.push(count);
    return this.lease(count);
  }

  override append(commit: CommitRecord): Promise<AppendResult> {
    this.commits.push(commit);
    return this.inner.append(commit);
  }
}
