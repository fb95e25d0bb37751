import { describe, expect, it } from 'vitest';
import { IdLeases, validLeaseCount } from '../../../src/internal/sequencing/IdLeases.ts';

describe('IdLeases', () => {
  it("grant - each lease starts past the last one and past the book's counter; granted numbers are covered", () => {
    const leases = new IdLeases();
    const a = leases.grant(10, 0);
    const b = leases.grant(5, 40);
    expect([a, b]).toEqual([
      { from: 1, to: 11 },
      { from: 41, to: 46 },
    ]);
    expect(leases.through).toBe(45);
    expect([1, 10, 11, 40, 41, 45, 46].map((n) => leases.covers(n))).toEqual([true, true, false, false, true, true, false]);
  });

  it('take - leases read from another writer are joined, in any order, and never granted again', () => {
    const leases = new IdLeases();
    leases.take({ from: 21, to: 31 });
    leases.take({ from: 1, to: 11 });
    leases.take({ from: 11, to: 21 });
    expect(leases.record()).toEqual({ through: 30, ranges: [[1, 31]] });
    expect(leases.grant(1, 0)).toEqual({ from: 31, to: 32 });
    const copy = new IdLeases(leases.record());
    copy.takeAll({ through: 100, ranges: [[90, 101]] });
    expect([copy.covers(95), copy.through, leases.covers(95)]).toEqual([true, 100, false]);
  });

  it('bounded - past 64 separate ranges the oldest join across their gap (a superset)', () => {
    const leases = new IdLeases();
    for (let i = 0; i < 70; i += 1) leases.grant(1, i * 10);
    expect(leases.record().ranges.length).toBeLessThanOrEqual(64);
    for (let i = 0; i < 70; i += 1) expect(leases.covers(i * 10 + 1)).toBe(true);
  });

  it('validLeaseCount - a positive safe integer of at most a million', () => {
    expect([1, 1_000_000, 0, -1, 1.5, Number.NaN, 1_000_001].map(validLeaseCount)).toEqual([true, true, false, false, false, false, false]);
  });
});
