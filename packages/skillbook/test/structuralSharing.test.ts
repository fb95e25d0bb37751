import { describe, expect, it } from 'vitest';
import { Skillbook } from '../src/index.ts';
import { fixedClock } from './utils/fixture.ts';

const clock = fixedClock();

/** Every object reachable from a book's internal state (arrays, Maps, plain objects). */
function reachable(book: Skillbook): Set<object> {
  const seen = new Set<object>();
  const stack: unknown[] = [(book as unknown as { state: object }).state];
  while (stack.length > 0) {
    const v = stack.pop();
    if (v === null || typeof v !== 'object' || seen.has(v)) continue;
    seen.add(v);
    if (v instanceof Map) for (const [k, x] of v) stack.push(k, x);
    else stack.push(...Object.values(v));
  }
  return seen;
}

function bookOf(size: number): Skillbook {
  let book = Skillbook.empty();
  for (let start = 0; start < size; start += 500) {
    const operations = Array.from({ length: Math.min(500, size - start) }, (_, i) => ({
      type: 'ADD',
      section: (start + i) % 3 === 0 ? 'harness' : 'context',
      issue: `issue ${start + i}`,
      insight: 'x',
    }));
    const r = book.applyBatch({ operations }, { clock });
    if (!r.ok) throw new Error(r.error.message);
    book = r.book;
  }
  return book;
}

const batch = {
  operations: [
    { type: 'ADD', section: 'context', issue: 'new', insight: 'x' },
    { type: 'ADD', section: 'harness', issue: 'new' },
    { type: 'UPDATE', skill_id: 'context-00002', insight: 'changed' },
    { type: 'TAG', skill_id: 'harness-00004', metadata: { delta: 1 } },
    { type: 'REMOVE', skill_id: 'context-00006' },
  ],
};

describe('structural sharing - a batch costs O(k), not O(n)', () => {
  it('a 5-op batch creates the same small number of new objects on books of 300 and 6,000 skills', () => {
    const counts = [300, 6_000].map((size) => {
      const book = bookOf(size);
      const before = reachable(book);
      const r = book.applyBatch(batch, { clock });
      expect(r.ok && r.applied.length).toBe(5);
      const fresh = [...reachable(r.book)].filter((o) => !before.has(o));
      return { size, total: before.size, fresh: fresh.length };
    });
    for (const c of counts) expect(c.fresh).toBeLessThan(100);
    // the large book really is twenty times larger in objects
    expect(counts[1]?.total).toBeGreaterThan(15 * (counts[0]?.total ?? 0));
    // a deeper chunk tree at 6,000 may add a node or two on each path, no more
    expect((counts[1]?.fresh ?? 0) - (counts[0]?.fresh ?? 0)).toBeLessThanOrEqual(12);
  });
});
