import { Skillbook } from '@cohort/skillbook';
import type { PersistedCommit, Store } from '@cohort/store';
import { replayHistory } from '@cohort/store';
import { retryStoreIo } from './retry.ts';

/** How many books by revision a worker keeps (the bases of the runs it serves now). */
const KEPT = 8;

/**
 * The store's book at a past revision, as a unit's view starts from it: the store's current
 * book when it is at that revision, a book kept from earlier, or the history replayed up to it.
 */
export class BookAt {
  private readonly kept = new Map<number, Skillbook>();

  constructor(private readonly store: Store) {}

  /** The book at `revision`; an error message when the history does not reach it. */
  async at(revision: number): Promise<Skillbook | string> {
    const current = this.store.current();
    if (current?.revision === revision) return this.keep(revision, current.book);
    const kept = this.kept.get(revision);
    if (kept) return kept;
    const commits: PersistedCommit[] = [];
    for (let after = 0; ; ) {
      // a connection lost meanwhile (a restart of the store's server): asked again for a while
      const page = await retryStoreIo(() => this.store.history({ after, limit: 500 }));
      if (!page.ok) return `the store's history could not be read: ${page.error.message}`;
      for (const c of page.commits) if (c.revision <= revision) commits.push(c);
      if (page.next === null || page.next >= revision) break;
      after = page.next;
    }
    const last = commits.at(-1);
    if (revision > 0 && last?.revision !== revision) return `the store's history has no revision ${revision}`;
    const replayed = replayHistory(commits, Skillbook.empty());
    if (!replayed.ok) return `the store's history does not replay at revision ${replayed.revision}: ${replayed.message}`;
    return this.keep(revision, replayed.book);
  }

  private keep(revision: number, book: Skillbook): Skillbook {
    this.kept.set(revision, book);
    if (this.kept.size > KEPT) this.kept.delete(this.kept.keys().next().value ?? revision);
    return book;
  }
}
