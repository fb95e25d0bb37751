import { Immer, enableMapSet } from 'immer';
import { describe, expect, it } from 'vitest';
import { emptyShardedMap, shardedDelete, shardedGet, shardedSet } from '../../src/internal/ShardedMap.ts';
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
  const big = edit(immer.produce(emptyShardedMap<number>(), () => undefined), (d) => keys.forEach((k, i) => shardedSet(d, k, i)));

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
});
