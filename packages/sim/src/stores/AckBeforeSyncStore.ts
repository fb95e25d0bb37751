import type { Skillbook } from '@cohort/skillbook';
import { commitOps } from '@cohort/store';
import type { AppendResult, CommitRecord, StoreSnapshot } from '@cohort/store';
import { DelegatingStore } from '@cohort/store/adapter';

/**
 * A deliberately broken store, for proving the checker can fail: it acknowledges an append
 * at once (its book replayed in memory) and hands it to the real store in the background, so
 * a crash before the real store syncs loses merges the runtime was told are durable.
 * Invariant 7 must catch it. Never use it outside a test of the checker.
 *
 * @example
 * const rt = createRuntime({ store: new AckBeforeSyncStore(fileStore) });
 */
export class AckBeforeSyncStore extends DelegatingStore {
  private book: Skillbook | null = null;

  override get kind(): string {
    return `${this.inner.kind}+ack-before-sync`;
  }

  override async load(): Promise<StoreSnapshot> {
    const snapshot = await this.inner.load();
    this.book = snapshot.book;
    return snapshot;
  }

  override append(commit: CommitRecord): Promise<AppendResult> {
    const replayed = this.book?.replay(commitOps(commit));
    if (!replayed?.ok) return this.inner.append(commit);
    this.book = replayed.book;
    // the bug: durability is someone else's problem now
    void this.inner.append(commit);
    return Promise.resolve({ ok: true, revision: replayed.book.revision, book: replayed.book });
  }
}
