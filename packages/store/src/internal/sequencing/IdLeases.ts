import { z } from 'zod';
import type { IdLease } from '../../Store.ts';

/** The leases a store granted, as a ledger keeps them: the counter's high-water mark and the granted ranges. */
export const LeaseRecordSchema = z.object({
  /** The last number granted (0: none yet). */
  through: z.number().int().nonnegative(),
  /** Granted ranges `[from, to)`, joined where they touch, oldest first. */
  ranges: z.array(z.tuple([z.number().int().nonnegative(), z.number().int().nonnegative()])),
});
/** See {@link LeaseRecordSchema}. */
export type LeaseRecord = z.infer<typeof LeaseRecordSchema>;

/** Past this many separate ranges the oldest two are joined (a superset: see {@link IdLeases.covers}). */
const MAX_RANGES = 64;

/**
 * The id leases a store granted: which numbers of the global counter are leased, and where the
 * next lease starts. Leases never overlap and are never granted again; the ranges are kept
 * joined and bounded (past {@link MAX_RANGES} separate ranges the oldest are joined with the gap
 * between them, so `covers` may say yes for a number in an old gap — the store then treats an
 * external skill there as one that fell in a lease, which only costs it a new id).
 */
export class IdLeases {
  private readonly ranges: [number, number][];
  private last: number;

  constructor(record: LeaseRecord = { through: 0, ranges: [] }) {
    this.ranges = record.ranges.map(([from, to]): [number, number] => [from, to]);
    this.last = record.through;
  }

  /** The last number granted (0: none). */
  get through(): number {
    return this.last;
  }

  /** Grants `count` numbers past both every lease and `nextId` (the book's counter). */
  grant(count: number, nextId: number): IdLease {
    const from = Math.max(this.last, nextId) + 1;
    const lease = { from, to: from + count };
    this.take(lease);
    return lease;
  }

  /** Records a lease granted elsewhere (read from the journal or another writer's ledger): it is never granted again. */
  take(lease: IdLease): void {
    if (lease.to <= lease.from) return;
    this.last = Math.max(this.last, lease.to - 1);
    const newest = this.ranges[this.ranges.length - 1];
    if (!newest || newest[1] < lease.from) this.ranges.push([lease.from, lease.to]);
    else if (newest[0] <= lease.from) newest[1] = Math.max(newest[1], lease.to);
    else this.insert(lease);
    if (this.ranges.length > MAX_RANGES) {
      const [first, second] = this.ranges.splice(0, 2);
      if (first && second) this.ranges.unshift([first[0], second[1]]);
    }
  }

  /** Takes every lease of another record. */
  takeAll(record: LeaseRecord): void {
    for (const [from, to] of record.ranges) this.take({ from, to });
    this.last = Math.max(this.last, record.through);
  }

  /** Puts a lease that is not the newest among the ranges, joining what it overlaps or touches. */
  private insert(lease: IdLease): void {
    const all = [...this.ranges, [lease.from, lease.to] as [number, number]].sort((a, b) => a[0] - b[0]);
    const joined: [number, number][] = [];
    for (const [from, to] of all) {
      const last = joined[joined.length - 1];
      if (last && last[1] >= from) last[1] = Math.max(last[1], to);
      else joined.push([from, to]);
    }
    this.ranges.splice(0, this.ranges.length, ...joined);
  }

  /** Whether number `n` was (or may have been) leased. */
  covers(n: number): boolean {
    for (const [from, to] of this.ranges) if (n >= from && n < to) return true;
    return false;
  }

  /** The record a ledger keeps. */
  record(): LeaseRecord {
    return { through: this.last, ranges: this.ranges.map(([from, to]): [number, number] => [from, to]) };
  }

  /** A copy (a group of appends that is not written leaves the leases as they were). */
  copy(): IdLeases {
    return new IdLeases(this.record());
  }
}

/** Whether `count` is a number of ids a lease can have (a positive safe integer, at most a million). */
export function validLeaseCount(count: number): boolean {
  return Number.isSafeInteger(count) && count > 0 && count <= 1_000_000;
}
