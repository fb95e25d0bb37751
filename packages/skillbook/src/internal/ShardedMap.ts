/**
 * A string-keyed map split into up to 32 × 32 × 32 small `Map` buckets by a hash of the key
 * (a fixed-depth hash trie), so that an immer `produce` that writes one key copies three
 * 32-slot arrays and one bucket of a few entries instead of a container holding every entry
 * (immer copies a whole object or Map on its first write: 24 ms for a 100k-entry Map). Reads
 * take the frozen value; writes take an immer draft, or a commit's {@link Transient}. Keys are
 * `Map` keys, so `__proto__`, `constructor` or `7` are ordinary keys.
 */
import type { Transient } from './Transient.ts';

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
 * 32-bit signed integer (a small integer to V8, so it can be stored unboxed: the change log
 * keeps these hashes rather than the id strings).
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
 * Sets `key` in a commit (see {@link Transient}): copies the nodes on the key's path once per
 * commit and writes into the copies. `map` must be a header the transient owns.
 */
export function shardedSetTransient<V>(map: { size: number; root: Node<V> }, key: string, value: V, t: Transient): void {
  const h = keyHash(key);
  let node = t.array(map.root);
  map.root = node;
  for (let level = 0; level < LEVELS - 1; level++) {
    const i = (h >>> (level * BITS)) & MASK;
    const child = node[i] as Node<V> | null;
    const writable: (Node<V> | ReadonlyMap<string, V> | null)[] = child ? t.array(child) : t.adopt(new Array<null>(WIDTH).fill(null));
    node[i] = writable;
    node = writable;
  }
  const i = (h >>> ((LEVELS - 1) * BITS)) & MASK;
  const bucket = node[i] as ReadonlyMap<string, V> | null;
  const writable = bucket ? t.map(bucket) : t.adopt(new Map<string, V>());
  node[i] = writable;
  if (!writable.has(key)) map.size += 1;
  writable.set(key, value);
}
