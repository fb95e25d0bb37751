import type { PersistedCommit, Store } from '@cohort/store';

/**
 * Every commit a store persisted, page by page, in revision order; null when the store refuses
 * a page (a store poisoned by a fault it could not undo).
 *
 * @example
 * const history = await readHistory(store);
 */
export async function readHistory(store: Pick<Store, 'history'>): Promise<PersistedCommit[] | null> {
  const out: PersistedCommit[] = [];
  for (let after = -1; ;) {
    const page = await store.history({ after, limit: 500 });
    if (!page.ok) return null;
    out.push(...page.commits);
    if (page.next === null) return out;
    after = page.next;
  }
}
