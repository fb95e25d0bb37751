import type { Skillbook } from '../../src/index.ts';

/**
 * Everything a book shows: its document, counters, per-skill revisions and the skill objects
 * themselves (keys in order, frozen or not). Two books a reader could tell apart describe
 * differently; for tests that a book read one way (a snapshot, a journal) is the book read
 * another.
 */
export function describeBook(b: Skillbook): unknown {
  return {
    text: b.toJSON(),
    revision: b.revision,
    nextId: b.nextId,
    size: b.size,
    stats: b.stats(),
    prompt: b.asPrompt(),
    skills: [...b.skills()].map((s) => [
      Object.keys(s),
      JSON.stringify(s),
      b.revisionsOf(s.id),
      Object.isFrozen(s),
      Object.isFrozen(s.keywords),
    ]),
  };
}
