import { describe, expect, it } from 'vitest';
import { freezeMap } from '../src/internal/frozenMap.ts';
import { Skillbook } from '../src/index.ts';

describe('freezeMap', () => {
  it('leaves a Map readable and refuses every write', () => {
    const map = freezeMap(
      new Map([
        ['a', 1],
        ['b', 2],
      ]),
    ) as Map<string, number>;
    expect(map instanceof Map).toBe(true);
    expect(Object.isFrozen(map)).toBe(true);
    expect(map.get('a')).toBe(1);
    expect([...map.entries()]).toEqual([
      ['a', 1],
      ['b', 2],
    ]);
    expect(() => map.set('c', 3)).toThrow(TypeError);
    expect(() => map.delete('a')).toThrow(TypeError);
    expect(() => map.clear()).toThrow(TypeError);
    expect(map.size).toBe(2);
  });

  it('freezes the Maps inside a book built by a commit', () => {
    const book = Skillbook.empty().applyBatch({ operations: [{ type: 'ADD', section: 'harness', issue: 'flaky network' }] });
    if (!book.ok) throw new Error(book.error.message);
    const maps: Map<unknown, unknown>[] = [];
    const seen = new Set<object>();
    const walk = (value: unknown): void => {
      if (typeof value !== 'object' || value === null || seen.has(value)) return;
      seen.add(value);
      if (value instanceof Map) {
        maps.push(value);
        for (const v of value.values()) walk(v);
      } else if (Array.isArray(value)) value.forEach(walk);
      else for (const v of Object.values(value)) walk(v);
    };
    walk(book.book);
    expect(maps.length).toBeGreaterThan(0);
    for (const m of maps) expect(() => m.set('x', 1)).toThrow(TypeError);
  });
});
