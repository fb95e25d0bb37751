import { describe, expect, it } from 'vitest';
import { createPrng } from '@cohort/sim';

describe('createPrng', () => {
  it('createPrng - the same seed gives the same sequence, a different seed another', () => {
    const draw = (seed: number) =>
      Array.from(
        { length: 8 },
        (
          (p) => () =>
            p.next()
        )(createPrng(seed)),
      );
    expect(draw(42)).toEqual(draw(42));
    expect(draw(42)).not.toEqual(draw(43));
  });

  it('createPrng - ints stay in range and cover it; weighted picks follow the weights', () => {
    const p = createPrng(1);
    const seen = new Set<number>();
    for (let i = 0; i < 1000; i++) {
      const n = p.int(3, 7);
      expect(n).toBeGreaterThanOrEqual(3);
      expect(n).toBeLessThanOrEqual(7);
      seen.add(n);
    }
    expect([...seen].sort()).toEqual([3, 4, 5, 6, 7]);
    const counts = { a: 0, b: 0, never: 0 };
    for (let i = 0; i < 1000; i++) counts[p.weighted({ a: 3, b: 1, never: 0 })] += 1;
    expect(counts.never).toBe(0);
    expect(counts.a).toBeGreaterThan(counts.b * 2);
  });

  it('createPrng - a fork is independent of how much its parent drew', () => {
    const a = createPrng(9);
    const b = createPrng(9);
    b.next();
    b.next();
    expect(a.fork('store').next()).toBe(b.fork('store').next());
    expect(a.fork('store').next()).not.toBe(a.fork('limits').next());
  });
});
