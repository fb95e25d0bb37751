import type { Skillbook } from '@cohort/skillbook';
import type { AppendResult, CommitRecord, Store, StoreSnapshot } from '@cohort/store';

/**
 * A deliberately broken store, for proving the checker can fail: it acknowledges an append
 * at once (its book replayed in memory) and hands it to the real store in the background, so
 * a crash before the real store syncs loses merges the runtime was told are durable.
 * Invariant 7 must catch it. Never use it outside a test of the checker.
 *
 * @example
 * const rt = createRuntime({ store: new AckBeforeSyncStore(fileStore) });
 */
export class AckBeforeSyncStore implements Store {
  private book: Skillbook | null = null;

  constructor(private readonly inner: Store) {}

  get kind(): string {
    return `${this.inner.kind}+ack-before-sync`;
  }

  get notices$(): Store['notices$'] {
    return this.inner.notices$;
  }

  async load(): Promise<StoreSnapshot> {
    const snapshot = await this.inner.load();
    this.book = snapshot.book;
    return snapshot;
  }

  append(commit: CommitRecord): Promise<AppendResult> {
    const replayed = this.book?.replay(commit.ops);
    if (!replayed?.ok) return this.inner.append(commit);
    this.book = replayed.book;
    // the bug: durability is someone else's problem now
    void this.inner.append(commit);
    return Promise.resolve({ ok: true, revision: replayed.book.revision, book: replayed.book });
  }

  close(): Promise<void> {
    return this.inner.close();
  }
}
