/**
 * A string-keyed map split into up to 32 × 32 × 32 small `Map` buckets by a hash of the key
 * (a fixed-depth hash trie), so that an immer `produce` that writes one key copies three
 * 32-slot arrays and one bucket of a few entries instead of a container holding every entry
 * (immer copies a whole object or Map on its first write: 24 ms for a 100k-entry Map). Reads
 * take the frozen value; writes take an immer draft, or a commit's batch ({@link shardedWithAll}). Keys are
 * `Map` keys, so `__proto__`, `constructor` or `7` are ordinary keys.
 */
import { freezeMap } from './frozenMap.ts';

const BITS = 5;
const LEVELS = 3;
const WIDTH = 1 << BITS;
const MASK = WIDTH - 1;

/** A node: `LEVELS - 1` levels of `WIDTH`-slot arrays above the buckets (`null` until used). */
type Node<V> = readonly (Node<V> | ReadonlyMap<string, V> | null)[];
type MutableNode<V> = (MutableNode<V> | Map<string, V> | null)[];

/** The frozen value. */
export interface ShardedMap<V> {
  readonly size: number;
  readonly root: Node<V>;
}

/** The same shape while it is built or edited (mutable: a fresh map, or through an immer draft). */
export interface MutableShardedMap<V> {
  size: number;
  root: MutableNode<V>;
}

/**
 * FNV-1a over UTF-16 units, then murmur3's finaliser so every 5-bit slice is well mixed. A
 * 32-bit signed integer: the change log keeps these hashes rather than the id strings.
 */
export function keyHash(key: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) {
    h ^= key.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h;
}

/** A new empty map (mutable until frozen). */
export function emptyShardedMap<V>(): MutableShardedMap<V> {
  return { size: 0, root: new Array<null>(WIDTH).fill(null) };
}

function bucketOf<V>(root: Node<V>, h: number): ReadonlyMap<string, V> | undefined {
  let node: Node<V> | ReadonlyMap<string, V> | null | undefined = root;
  for (let level = 0; level < LEVELS && node; level++) node = (node as Node<V>)[(h >>> (level * BITS)) & MASK];
  return (node as ReadonlyMap<string, V> | null | undefined) ?? undefined;
}

/** The value for `key`, or `undefined`. O(1). */
export function shardedGet<V>(map: ShardedMap<V>, key: string): V | undefined {
  return bucketOf(map.root, keyHash(key))?.get(key);
}

/** Sets `key` on a draft (or a fresh, not yet frozen map). Copies one path of slots. */
export function shardedSet<V>(map: MutableShardedMap<V>, key: string, value: V): void {
  const h = keyHash(key);
  let node = map.root;
  for (let level = 0; level < LEVELS - 1; level++) {
    const i = (h >>> (level * BITS)) & MASK;
    let child = node[i] as MutableNode<V> | null;
    if (!child) {
      child = new Array<null>(WIDTH).fill(null);
      node[i] = child;
    }
    node = child;
  }
  const i = (h >>> ((LEVELS - 1) * BITS)) & MASK;
  let bucket = node[i] as Map<string, V> | null;
  if (!bucket) {
    bucket = new Map<string, V>();
    node[i] = bucket;
  }
  if (!bucket.has(key)) map.size += 1;
  bucket.set(key, value);
}

/** Deletes `key` on a draft; returns whether it was there. */
export function shardedDelete<V>(map: MutableShardedMap<V>, key: string): boolean {
  const h = keyHash(key);
  if (!(bucketOf(map.root as Node<V>, h)?.has(key) ?? false)) return false;
  let node = map.root;
  for (let level = 0; level < LEVELS - 1; level++) node = node[(h >>> (level * BITS)) & MASK] as MutableNode<V>;
  (node[(h >>> ((LEVELS - 1) * BITS)) & MASK] as Map<string, V>).delete(key);
  map.size -= 1;
  return true;
}

/**
 * The frozen map with every entry of `entries` set (in their order), sharing every node that
 * no key's path runs through: each node on a written path is copied once (a spread copy) and
 * all copies are frozen at the end. O(k) for k entries, whatever the map's size.
 *
 * A node is known to be this commit's copy because it differs from the node at the same place
 * in `map`: the base is walked beside the copy, so no record of copied nodes is kept or asked.
 * Each key is hashed and written in one visit, in the order the entries were written.
 */
export function shardedWithAll<V>(map: ShardedMap<V>, entries: ReadonlyMap<string, V>): ShardedMap<V> {
  if (entries.size === 0) return map;
  const made: (unknown[] | Map<string, V>)[] = [];
  const root: MutableSlots<V> = [...map.root];
  let size = map.size;
  for (const [key, value] of entries) {
    const h = keyHash(key);
    let node = root;
    let base: Node<V> | null = map.root;
    for (let level = 0; level < LEVELS - 1; level++) {
      const i = (h >>> (level * BITS)) & MASK;
      const was: Node<V> | null = base ? (base[i] as Node<V> | null) : null;
      let child = node[i] as MutableSlots<V> | null;
      if (child === was) {
        child = was ? [...was] : new Array<null>(WIDTH).fill(null);
        made.push(child);
        node[i] = child;
      }
      node = child as MutableSlots<V>;
      base = was;
    }
    const i = (h >>> ((LEVELS - 1) * BITS)) & MASK;
    const was = base ? (base[i] as ReadonlyMap<string, V> | null) : null;
    let bucket = node[i] as Map<string, V> | null;
    if (bucket === was) {
      bucket = was ? new Map(was) : new Map<string, V>();
      made.push(bucket);
      node[i] = bucket;
    }
    if (!(bucket as Map<string, V>).has(key)) size += 1;
    (bucket as Map<string, V>).set(key, value);
  }
  for (const node of made) {
    if (node instanceof Map) freezeMap(node);
    else Object.freeze(node);
  }
  return Object.freeze({ size, root: Object.freeze(root) });
}

/** A node's slots while a commit writes them. */
type MutableSlots<V> = (Node<V> | ReadonlyMap<string, V> | null)[];
