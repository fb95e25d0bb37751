import type { Skillbook } from '@cohort/skillbook';

/** Noon of day `day` of January 2026: the time of an edit in these tests. */
export const day = (n: number): number => Date.UTC(2026, 0, n, 12);

/** `book` after raw ACE operations applied at `at` (throws on a refusal: a test bug). */
export function edit(book: Skillbook, at: number, ...operations: Record<string, unknown>[]): Skillbook {
  const r = book.applyBatch({ operations }, { clock: { now: () => at } });
  if (!r.ok) throw new Error(r.error.message);
  return r.book;
}

/** An ADD of a context skill under an explicit id. */
export const add = (id: string, issue: string, insight = `insight of ${issue}`): Record<string, unknown> => ({
  type: 'ADD',
  section: 'context',
  skill_id: id,
  issue,
  insight,
});
/** An UPDATE of a skill's insight. */
export const update = (id: string, insight: string): Record<string, unknown> => ({
  type: 'UPDATE',
  section: 'context',
  skill_id: id,
  insight,
});
/** A TAG (helpful by default). */
export const tag = (id: string, delta = 1): Record<string, unknown> => ({
  type: 'TAG',
  section: 'context',
  skill_id: id,
  metadata: { delta },
});
/** A soft REMOVE. */
export const remove = (id: string): Record<string, unknown> => ({ type: 'REMOVE', section: 'context', skill_id: id });

/** Nothing leased, nothing remembered. */
export const noIds = { leased: (): boolean => false, leasedThrough: 0, remembered: (): string | undefined => undefined };

/** `[id, issue, insight, active, helpful]` of each skill, in document order. */
export function rows(book: Skillbook): [string, string, string | undefined, boolean, number][] {
  return [...book.skills()].map((s) => [s.id, s.issue, s.insight, s.active, s.helpful_count]);
}
