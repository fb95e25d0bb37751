import { Immer, enableMapSet } from 'immer';
import { describe, expect, it } from 'vitest';
import { emptyShardedMap, shardedDelete, shardedGet, shardedSet, shardedWithAll, keyHash } from '../../src/internal/ShardedMap.ts';
import type { ShardedMap, MutableShardedMap } from '../../src/internal/ShardedMap.ts';

enableMapSet();
const immer = new Immer({ autoFreeze: true });

function edit(map: ShardedMap<number>, fn: (d: MutableShardedMap<number>) => void): ShardedMap<number> {
  return immer.produce(map, (d) => fn(d as unknown as MutableShardedMap<number>));
}

/** Every node and bucket reachable from a map. */
function nodes(map: ShardedMap<number>): Set<unknown> {
  const out = new Set<unknown>();
  const walk = (n: unknown): void => {
    if (!n || out.has(n)) return;
    out.add(n);
    if (Array.isArray(n)) n.forEach(walk);
  };
  walk(map.root);
  return out;
}

describe('ShardedMap', () => {
  const keys = ['__proto__', 'constructor', 'toString', '7', '', ...Array.from({ length: 5000 }, (_, i) => `context-${i}`)];
  const big = edit(
    immer.produce(emptyShardedMap<number>(), () => undefined),
    (d) => keys.forEach((k, i) => shardedSet(d, k, i)),
  );

  it('gets, sets and deletes any string key, including __proto__, constructor and 7', () => {
    expect(big.size).toBe(keys.length);
    keys.forEach((k, i) => expect(shardedGet(big, k)).toBe(i));
    expect(shardedGet(big, 'valueOf')).toBeUndefined();
    const smaller = edit(big, (d) => {
      expect(shardedDelete(d, '__proto__')).toBe(true);
      expect(shardedDelete(d, 'absent')).toBe(false);
    });
    expect([smaller.size, shardedGet(smaller, '__proto__'), shardedGet(big, '__proto__')]).toEqual([keys.length - 1, undefined, 0]);
  });

  it('a write copies one path of small nodes and shares everything else', () => {
    const before = nodes(big);
    const after = edit(big, (d) => shardedSet(d, 'context-17', -1));
    const fresh = [...nodes(after)].filter((n) => !before.has(n));
    expect(fresh.length).toBe(4); // three levels of 32-slot arrays and one bucket
    expect(shardedGet(after, 'context-17')).toBe(-1);
    expect(shardedGet(big, 'context-17')).toBe(22);
  });

  it('shardedWithAll - a commit of many keys gives the map setting them one by one gives, copying each node on their paths once', () => {
    const batch = new Map<string, number>([
      ['context-17', -1],
      ['__proto__', -2],
      ['valueOf', -3],
      ...Array.from({ length: 3000 }, (_, i): [string, number] => [`harness-${i}`, i]),
    ]);
    const before = nodes(big);
    const after = shardedWithAll(big, batch);
    const oneByOne = edit(big, (d) => batch.forEach((v, k) => shardedSet(d, k, v)));
    expect(after.size).toBe(oneByOne.size);
    const buckets = (m: ShardedMap<number>): unknown[] =>
      [...nodes(m)].filter((n) => n instanceof Map).map((b) => [...(b as Map<string, number>)]);
    expect(buckets(after).sort()).toEqual(buckets(oneByOne).sort());
    // one fresh node per distinct path prefix of the written keys (the root, 32-slot nodes, buckets)
    const fresh = [...nodes(after)].filter((n) => !before.has(n));
    const prefixes = new Set<string>(['']);
    for (const key of batch.keys()) {
      const h = keyHash(key);
      for (let level = 1; level <= 3; level++) prefixes.add(Array.from({ length: level }, (_, l) => (h >>> (5 * l)) & 31).join('/'));
    }
    expect(fresh.length).toBe(prefixes.size);
    for (const n of fresh) expect(Object.isFrozen(n)).toBe(true);
    expect(() => (bucketOf(after, 'valueOf') as Map<string, number>).set('x', 1)).toThrow(TypeError);
    // the base is untouched
    expect([shardedGet(big, 'context-17'), shardedGet(big, 'valueOf'), big.size]).toEqual([22, undefined, keys.length]);
    expect(shardedWithAll(big, new Map())).toBe(big);
  });
});

/** The bucket holding `key`. */
function bucketOf(map: ShardedMap<number>, key: string): unknown {
  const h = keyHash(key);
  let node: unknown = map.root;
  for (let level = 0; level < 3; level++) node = (node as unknown[])[(h >>> (5 * level)) & 31];
  return node;
}
