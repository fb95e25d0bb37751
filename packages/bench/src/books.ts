/**
 * Books and ops the scenarios share: books of n skills built with ordinary batches, and the
 * ids of their skills (`buildBook` allocates `context-…` / `harness-…` in order, a third harness).
 */
import type { Clock } from '@cohort/skillbook';

export { buildBook, mixedBatch } from './skillbookBatch.ts';

/** The id of the `n`-th skill (1-based) of a book made by `buildBook`. */
export function idOf(n: number): string {
  return `${(n - 1) % 3 === 0 ? 'harness' : 'context'}-${String(n).padStart(5, '0')}`;
}

/** A random existing id of a book made by `buildBook` with `size` skills. */
export function randomId(size: number, rand: () => number): string {
  return idOf(1 + Math.floor(rand() * size));
}

/** A clock that always reads 2026-01-01 (deterministic documents where time does not matter). */
export const fixedClock: Clock = { now: () => Date.UTC(2026, 0, 1) };
