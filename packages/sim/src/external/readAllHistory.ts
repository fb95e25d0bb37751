import type { PersistedCommit, Store } from '@cohort/store';

/**
 * Every persisted commit of a store, in revision order (all pages of `history()`), or `null`
 * when it cannot be read.
 *
 * @example
 * const commits = await readAllHistory(store);
 */
export async function readAllHistory(store: Store): Promise<PersistedCommit[] | null> {
  const out: PersistedCommit[] = [];
  let after: number | undefined;
  for (;;) {
    const page = await store.history(after === undefined ? { limit: 500 } : { after, limit: 500 });
    if (!page.ok) return null;
    out.push(...page.commits);
    if (page.next === null) return out;
    after = page.next;
  }
}
