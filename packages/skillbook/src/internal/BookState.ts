/**
 * The frozen data behind a Skillbook, and the one place it is changed: {@link commitChanges}
 * writes a batch's precomputed changes through immer, touching only the buckets and chunks
 * those changes live in, so a batch costs O(k) whatever the book's size.
 */
import { Immer, current, enableMapSet, freeze, isDraft } from 'immer';
import type { Section, Skill, SkillRevisions } from '../types.ts';
import { emptyList, listPush } from './ChunkedList.ts';
import type { ChunkedList, ChunkedListDraft } from './ChunkedList.ts';
import type { PyValue } from './python.ts';
import { emptyShardedMap, shardedSet } from './ShardedMap.ts';
import type { ShardedMap, ShardedMapDraft } from './ShardedMap.ts';

enableMapSet();

/** Our own immer instance: auto-freeze on, whatever other packages set globally. */
const immer = new Immer({ autoFreeze: true });

/** A skill with the revisions at which its parts last changed. */
export interface SkillEntry {
  readonly skill: Skill;
  readonly rev: SkillRevisions;
}

/** One `similarity_decisions` value, passed through untouched (ACE field order). */
export type SimilarityDecision = readonly [decision: PyValue, reasoning: PyValue, decidedAt: PyValue, similarity: PyValue];

/** Active skill counts by section, kept up to date so `stats()` is O(1). */
export type ActiveCounts = Readonly<Record<Section, number>>;

/** Everything a book holds. Frozen; shared between versions. */
export interface BookState {
  readonly revision: number;
  readonly nextId: number;
  readonly active: ActiveCounts;
  readonly skills: ShardedMap<SkillEntry>;
  /** Skill ids in document (insertion) order: the `skills` key order of the document. */
  readonly order: ChunkedList<string>;
  /** ACE's `sections`: name → ids, kept as written (names other than context/harness too). */
  readonly sections: ReadonlyMap<string, ChunkedList<string>>;
  /** Revision at which each purged id disappeared. */
  readonly tombstones: ShardedMap<number>;
  /** Keyed by the sorted, comma-joined id pair. */
  readonly similarity: ReadonlyMap<string, SimilarityDecision>;
}

/** The mutable view of a {@link BookState} inside a recipe. */
export interface BookStateDraft {
  revision: number;
  nextId: number;
  active: ActiveCounts;
  skills: ShardedMapDraft<SkillEntry>;
  order: ChunkedListDraft<string>;
  sections: Map<string, ChunkedListDraft<string>>;
  tombstones: ShardedMapDraft<number>;
  similarity: Map<string, SimilarityDecision>;
}

/** A fresh, empty state (mutable until {@link freezeState}). */
export function emptyStateDraft(revision: number): BookStateDraft {
  return {
    revision,
    nextId: 0,
    active: { context: 0, harness: 0 },
    skills: emptyShardedMap(),
    order: emptyList(),
    sections: new Map(),
    tombstones: emptyShardedMap(),
    similarity: new Map(),
  };
}

/** Deep-freezes a state built outside immer (a loaded document). O(n), once per load. */
export function freezeState(draft: BookStateDraft): BookState {
  return freeze(draft as unknown as BookState, true);
}

/** What one batch changes, computed without touching the book. */
export interface Changes {
  readonly revision: number;
  readonly nextId: number;
  readonly active: ActiveCounts;
  /** New and replaced entries, by id. */
  readonly entries: ReadonlyMap<string, SkillEntry>;
  /** Ids added, in order, with the section list each is appended to. */
  readonly added: readonly (readonly [id: string, section: string])[];
}

const snapshot = (root: unknown[]): unknown[] => (isDraft(root) ? current(root) : root);

/** Applies {@link Changes} to a state through immer; only the touched paths are copied. */
export function commitChanges(base: BookState, changes: Changes): BookState {
  return immer.produce(base, (draft) => {
    const d = draft as unknown as BookStateDraft;
    d.revision = changes.revision;
    if (d.nextId !== changes.nextId) d.nextId = changes.nextId;
    if (d.active.context !== changes.active.context || d.active.harness !== changes.active.harness) {
      d.active = { ...changes.active };
    }
    for (const [id, entry] of changes.entries) shardedSet(d.skills, id, entry);
    for (const [id, section] of changes.added) {
      listPush(d.order, id, snapshot);
      let list = d.sections.get(section);
      if (!list) {
        d.sections.set(section, emptyList());
        list = d.sections.get(section) as ChunkedListDraft<string>;
      }
      listPush(list, id, snapshot);
    }
  });
}

/** Runs a recipe on a draft of the state (for rare whole-book edits such as purge). */
export function editState(base: BookState, recipe: (draft: BookStateDraft) => void): BookState {
  return immer.produce(base, (draft) => {
    recipe(draft as unknown as BookStateDraft);
  });
}
