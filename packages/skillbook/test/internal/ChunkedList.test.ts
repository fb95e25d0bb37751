import { Immer, current, isDraft } from 'immer';
import { describe, expect, it } from 'vitest';
import { emptyList, listFromArray, listPush, listToArray, listValues, listWithAll } from '../../src/internal/ChunkedList.ts';
import type { ChunkedList, MutableChunkedList } from '../../src/internal/ChunkedList.ts';

const immer = new Immer({ autoFreeze: true });
const snapshot = (root: unknown[]): unknown[] => (isDraft(root) ? current(root) : root);

function push(list: ChunkedList<number>, values: readonly number[]): ChunkedList<number> {
  return immer.produce(list, (d) => {
    for (const v of values) listPush(d as unknown as MutableChunkedList<number>, v, snapshot);
  });
}

describe('ChunkedList', () => {
  it('appends across chunk and level boundaries, in batches of any size, keeping order', () => {
    let list: ChunkedList<number> = immer.produce(emptyList<number>(), () => undefined);
    const versions: [ChunkedList<number>, number][] = [];
    let n = 0;
    for (const size of [1, 63, 1, 64, 200, 3767, 1, 4096, 5]) {
      list = push(
        list,
        Array.from({ length: size }, () => n++),
      );
      versions.push([list, n]);
    }
    expect(list.length).toBe(n);
    expect(list.height).toBe(2);
    expect(listToArray(list)).toEqual(Array.from({ length: n }, (_, i) => i));
    expect([...listValues(list)]).toEqual(listToArray(list));
    // older versions are untouched
    for (const [version, length] of versions) expect(listToArray(version)).toEqual(Array.from({ length }, (_, i) => i));
  });

  it('an append copies only the chunks on the path to the last item', () => {
    const list = immer.produce(listFromArray(Array.from({ length: 10_000 }, (_, i) => i)), () => undefined);
    const next = push(list, [10_000]);
    const shared = (list.root as unknown[]).filter((chunk, i) => chunk === (next.root as unknown[])[i]).length;
    expect(shared).toBe((list.root as unknown[]).length - 1);
    expect(Object.isFrozen(next.root)).toBe(true);
  });

  it('fromArray builds the same shape as appending one by one', () => {
    for (const length of [0, 1, 64, 65, 4096, 4097]) {
      const items = Array.from({ length }, (_, i) => i);
      const built = listFromArray(items);
      const pushed = push(
        immer.produce(emptyList<number>(), () => undefined),
        items,
      );
      expect({ length: built.length, height: built.height, items: listToArray(built) }).toEqual({
        length: pushed.length,
        height: pushed.height,
        items: listToArray(pushed),
      });
    }
  });

  it('listWithAll - appending many at once gives the list appending one by one gives, sharing every chunk before the old last one', () => {
    const chunks = (l: ChunkedList<number>): Set<unknown> => {
      const out = new Set<unknown>();
      const walk = (node: readonly unknown[], level: number): void => {
        out.add(node);
        if (level > 0) for (const child of node) walk(child as readonly unknown[], level - 1);
      };
      walk(l.root, l.height);
      return out;
    };
    for (const start of [0, 1, 63, 64, 4095, 4096, 5000]) {
      const list = immer.produce(listFromArray(Array.from({ length: start }, (_, i) => i)), () => undefined);
      for (const count of [1, 64, 4097]) {
        const items = Array.from({ length: count }, (_, i) => start + i);
        const all = listWithAll(list, items);
        const pushed = push(list, items);
        expect([all.length, all.height, listToArray(all)]).toEqual([pushed.length, pushed.height, listToArray(pushed)]);
        expect(listToArray(list)).toEqual(Array.from({ length: start }, (_, i) => i));
        const fresh = [...chunks(all)].filter((c) => !chunks(list).has(c));
        for (const c of fresh) expect(Object.isFrozen(c)).toBe(true);
        // fresh: the chunks holding the new items, and the copies on the old last path (at most one per level)
        const sharedBefore = [...chunks(list)].filter((c) => chunks(all).has(c)).length;
        expect(sharedBefore).toBeGreaterThanOrEqual(chunks(list).size - (list.height + 1));
        expect(Object.isFrozen(all)).toBe(true);
      }
    }
    const list = listFromArray([1]);
    expect(listWithAll(list, [])).toBe(list);
  });
});
