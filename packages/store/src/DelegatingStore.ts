import type { AppendResult, CommitRecord, HistoryOptions, HistoryPage, LeaseResult, RefusedCommit, Store, StoreSnapshot } from './Store.ts';
import type { StoreNotice } from './StoreNotice.ts';

/**
 * A store that hands everything to `inner`: a wrapper (metrics, recording, fault injection)
 * extends it and overrides only what it changes.
 *
 * @example
 * ```ts
 * class CountingStore extends DelegatingStore {
 *   appends = 0;
 *   override append(commit: CommitRecord) {
 *     this.appends++;
 *     return this.inner.append(commit);
 *   }
 * }
 * ```
 */
export class DelegatingStore implements Store {
  constructor(readonly inner: Store) {}

  get kind(): string {
    return this.inner.kind;
  }

  get notices$(): Store['notices$'] {
    return this.inner.notices$;
  }

  /** The inner store's books from other writers, when it has them (a store shared by processes). */
  get external$(): Store['external$'] {
    return this.inner.external$;
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

  recordRefused(refused: RefusedCommit): void {
    this.inner.recordRefused?.(refused);
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
