/**
 * Books and ops the scenarios share: books of n skills built with ordinary batches, and the
 * ids of their skills (`buildBook` allocates `context-…` / `harness-…` in order, a third harness).
 */
import { Skillbook, formatSkillId } from '@cohort/skillbook';
import type { Clock } from '@cohort/skillbook';

/** A clock that always reads 2026-01-01 (deterministic documents where time does not matter). */
export const fixedClock: Clock = { now: () => Date.UTC(2026, 0, 1) };

/** A book of `size` active skills (`context-00001` …), built with ordinary 1,000-op batches. */
export function buildBook(size: number): Skillbook {
  let book = Skillbook.empty();
  for (let start = 0; start < size; start += 1000) {
    const operations = [];
    for (let i = start; i < Math.min(size, start + 1000); i++) {
      const section = i % 3 === 0 ? 'harness' : 'context';
      operations.push({ type: 'ADD', section, issue: `issue ${i}`, insight: `insight ${i}`, keywords: [`k${i % 50}`] });
    }
    const result = book.applyBatch({ operations }, { clock: fixedClock });
    if (!result.ok) throw new Error(result.error.message);
    book = result.book;
  }
  return book;
}

/** The id of the `n`-th skill (1-based) of a book made by `buildBook`. */
export function idOf(n: number): string {
  return formatSkillId((n - 1) % 3 === 0 ? 'harness' : 'context', n);
}

/** A random existing id of a book made by `buildBook` with `size` skills. */
export function randomId(size: number, rand: () => number): string {
  return idOf(1 + Math.floor(rand() * size));
}
