/**
 * A map that keeps its newest `limit` keys: setting a key makes it the newest, and the oldest
 * go past the bound. What the store remembers of its past (renumberings, rebuilt versions) is
 * bounded this way.
 */
export class RecentMap<K, V> {
  private readonly map = new Map<K, V>();

  constructor(private readonly limit: number) {}

  get(key: K): V | undefined {
    return this.map.get(key);
  }

  /** Sets `key` as the newest entry, dropping the oldest past the limit. */
  set(key: K, value: V): void {
    this.map.delete(key);
    this.map.set(key, value);
    for (const k of this.map.keys()) {
      if (this.map.size <= this.limit) break;
      this.map.delete(k);
    }
  }

  /** Entries, oldest first. */
  entries(): IterableIterator<[K, V]> {
    return this.map.entries();
  }

  values(): IterableIterator<V> {
    return this.map.values();
  }

  clear(): void {
    this.map.clear();
  }

  get size(): number {
    return this.map.size;
  }
}
