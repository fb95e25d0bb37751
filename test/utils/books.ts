import { Skillbook } from '@cohort/skillbook';
import type { AuditEntry } from '@cohort/runtime';

/** A fixed clock for book-level helpers. */
export const fixedClock = { now: () => Date.UTC(2026, 0, 1) };

/** A book holding one context skill `context-00001` ("seed"). */
export function seededBook(): Skillbook {
  const result = Skillbook.empty().applyBatch(
    { operations: [{ type: 'ADD', section: 'context', issue: 'seed issue', insight: 'seed insight', keywords: ['seed'] }] },
    { clock: fixedClock },
  );
  if (!result.ok) throw new Error(result.error.message);
  return result.book;
}

/** Replays an audit on a book, as the audit promises: the result must equal the runtime's book. */
export function replayAudit(initial: Skillbook, audit: readonly AuditEntry[]): Skillbook {
  let book = initial;
  for (const entry of audit) {
    const result = book.replay(entry.ops);
    if (!result.ok) throw new Error(`audit entry of ${entry.sessionId} does not replay: ${result.error.message}`);
    book = result.book;
  }
  return book;
}

/**
 * `expected` with its `next_id` raised to `actual`'s: a store keeps the book's `next_id` past
 * every id lease it granted (so ACE allocates beyond them), and a lease is not a change of the
 * book — replaying an audit gives the book up to that counter.
 */
export function withLeases(expected: Skillbook, actual: Skillbook): Skillbook {
  return expected.reserveIds(actual.nextId);
}

/** Skill ids of a book, in document order. */
export function ids(book: Skillbook): string[] {
  return [...book.skills()].map((s) => s.id);
}

/** The issue texts of a book's skills. */
export function issues(book: Skillbook): string[] {
  return [...book.skills()].map((s) => s.issue);
}
