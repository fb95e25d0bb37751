/**
 * The last step of reading a book, shared by both readers — an ACE document
 * (`readAceDocument`) and a store's snapshot (`readSnapshot`) — so that they build the same
 * state from the same parts: sections rebuilt from the skills when the document lists none,
 * `next_id` raised to the largest numeric id suffix, every skill's revisions at the load
 * revision, no tombstones, everything frozen.
 */
import { idSuffix } from '../createIdAllocator.ts';
import type { Section, Skill } from '../types.ts';
import { emptyMutableState, freezeState } from './BookState.ts';
import type { BookState, SimilarityDecision } from './BookState.ts';
import { listFromArray } from './ChunkedList.ts';
import { freezeSkill } from './makeSkill.ts';
import { shardedSet } from './ShardedMap.ts';

/** What a reader decoded from a document, before the state is built. */
export interface DocumentParts {
  /** Skills by id, in document order. */
  readonly skills: ReadonlyMap<string, Skill>;
  /** ACE's `sections` as written (name → ids); empty: rebuilt from the skills, as ACE does. */
  readonly sections: ReadonlyMap<string, readonly string[]>;
  /** ACE's `next_id` as written (0 when absent). */
  readonly nextId: number;
  readonly similarity: Map<string, SimilarityDecision>;
}

/** Builds the frozen state of a book read at `revision` (see the module comment). */
export function assembleState(parts: DocumentParts, revision: number): BookState {
  let sections = parts.sections;
  if (sections.size === 0) {
    const rebuilt = new Map<string, string[]>();
    for (const skill of parts.skills.values()) {
      const ids = rebuilt.get(skill.section) ?? [];
      ids.push(skill.id);
      rebuilt.set(skill.section, ids);
    }
    sections = rebuilt;
  }
  let nextId = parts.nextId;
  const draft = emptyMutableState(revision);
  const active = { context: 0, harness: 0 };
  for (const [id, skill] of parts.skills) {
    // frozen here, where their shape is known, so that freezing the state skips them
    shardedSet(
      draft.skills,
      id,
      Object.freeze({ skill: freezeSkill(skill), contentRev: revision, activeRev: revision, countersRev: revision }),
    );
    if (skill.active) active[skill.section as Section] += 1;
    nextId = Math.max(nextId, idSuffix(id) ?? nextId);
  }
  draft.nextId = nextId;
  draft.active = active;
  draft.order = listFromArray([...parts.skills.keys()]);
  draft.sections = new Map([...sections].map(([name, ids]) => [name, listFromArray(ids)]));
  draft.similarity = parts.similarity;
  return freezeState(draft);
}
