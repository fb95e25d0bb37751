/**
 * The frozen data behind a Skillbook, and the one place it is changed: {@link commitChanges}
 * writes a batch's precomputed changes copy-on-write, touching only the buckets and chunks
 * those changes live in, so a batch costs O(k) whatever the book's size.
 */
import { Immer, enableMapSet, freeze } from 'immer';
import { freezeMap } from './frozenMap.ts';
import type { Section, Skill, SkillRevisions } from '../types.ts';
import { GENERATION_IDS, appendChange, changedAfter, emptyChangeLog } from './ChangeLog.ts';
import type { ChangedAfter, ChangeLog } from './ChangeLog.ts';
import { emptyList, listWithAll } from './ChunkedList.ts';
import type { ChunkedList, MutableChunkedList } from './ChunkedList.ts';
import type { PyValue } from './python.ts';
import { emptyShardedMap, keyHash, shardedGet, shardedWithAll } from './ShardedMap.ts';
import type { ShardedMap, MutableShardedMap } from './ShardedMap.ts';

enableMapSet();

/** Our own immer instance: auto-freeze on, whatever other packages set globally. */
const immer = new Immer({ autoFreeze: true });

/**
 * A skill with the revisions at which its parts last changed (`SkillRevisions`, kept flat: one
 * object less per skill, and an entry is made for every op).
 */
export interface SkillEntry {
  readonly skill: Skill;
  readonly contentRev: number;
  readonly activeRev: number;
  readonly countersRev: number;
}

/** An entry's revisions, as `revisionsOf` reports them. */
export function revisionsOfEntry(entry: SkillEntry): SkillRevisions {
  return Object.freeze({ content: entry.contentRev, active: entry.activeRev, counters: entry.countersRev });
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
  /** Which ids changed in recent revisions (for conflict checks). */
  readonly changes: ChangeLog;
}

/** A {@link BookState} being built (a loaded document, before {@link freezeState}) or edited (inside {@link editState}'s recipe). */
export interface MutableBookState {
  revision: number;
  nextId: number;
  active: ActiveCounts;
  skills: MutableShardedMap<SkillEntry>;
  order: MutableChunkedList<string>;
  sections: Map<string, MutableChunkedList<string>>;
  tombstones: MutableShardedMap<number>;
  similarity: Map<string, SimilarityDecision>;
  changes: ChangeLog;
}

/** A fresh, empty state (mutable until {@link freezeState}). */
export function emptyMutableState(revision: number): MutableBookState {
  return {
    revision,
    nextId: 0,
    active: { context: 0, harness: 0 },
    skills: emptyShardedMap(),
    order: emptyList(),
    sections: new Map(),
    tombstones: emptyShardedMap(),
    similarity: new Map(),
    changes: emptyChangeLog(revision),
  };
}

/**
 * Deep-freezes a state built outside immer (a loaded document). O(n), once per load. Freezes
 * what immer's deep `freeze` freezes — plain objects, arrays and `Map`s (those so that they
 * refuse `set`, see {@link freezeMap}), leaving class instances such as `PyFloat` alone — but walks the
 * skills of a large document faster than immer's generic walk (bench row 5).
 */
export function freezeState(state: MutableBookState): BookState {
  deepFreeze(state);
  return state;
}

function deepFreeze(value: object): void {
  if (Object.isFrozen(value)) return;
  if (Array.isArray(value)) {
    Object.freeze(value);
    for (const item of value) if (typeof item === 'object' && item !== null) deepFreeze(item);
  } else if (value instanceof Map) {
    freezeMap(value);
    for (const item of value.values()) if (typeof item === 'object' && item !== null) deepFreeze(item);
  } else if (isPlainObject(value)) {
    Object.freeze(value);
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) {
      const item = record[key];
      if (typeof item === 'object' && item !== null) deepFreeze(item);
    }
  } else if (value instanceof Set) {
    freeze(value, true);
  }
}

function isPlainObject(value: object): boolean {
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

/**
 * The collections a batch writes: a run's own, or a `SkillbookDraft`'s journal, which runs
 * over the draft write into in place.
 */
export interface Journal {
  /** New and replaced entries, by id. */
  readonly entries: Map<string, SkillEntry>;
  /** Ids added, in order (each goes to the end of its skill's section list). */
  readonly added: string[];
  /**
   * The section of each added id, at the same index: known where the skill was made, and read
   * there rather than from the skill again when the lists are written.
   */
  readonly addedSections: string[];
}

/**
 * What one batch changes, computed without touching the book. Its collections are handed
 * over: whoever made them no longer uses them, so the receiver may keep them and add to them.
 */
export interface Changes extends Journal {
  readonly revision: number;
  readonly nextId: number;
  readonly active: ActiveCounts;
}

/**
 * Writes {@link Changes} into a new state that shares every untouched node with `base`: only
 * the paths to the changed entries and the ends of the changed lists are copied (O(k) for k
 * changes, whatever the book's size). The new entries must be frozen already.
 *
 * Not immer's `produce`: it copies each frozen node of the trie on a slow path, and a batch
 * copies dozens of them — bench row 6i (docs/internals/performance.md). A frozen `Map` refuses
 * `set`, `delete` and `clear` as immer's frozen Maps do (see {@link freezeMap}).
 */
export function commitChanges(base: BookState, changes: Changes): BookState {
  const lists = changes.added.length === 0 ? base : appendAdded(base, changes);
  const same = base.active.context === changes.active.context && base.active.harness === changes.active.harness;
  return Object.freeze({
    revision: changes.revision,
    nextId: changes.nextId,
    active: same ? base.active : Object.freeze({ context: changes.active.context, harness: changes.active.harness }),
    skills: shardedWithAll(base.skills, changes.entries),
    order: lists.order,
    sections: lists.sections,
    tombstones: base.tombstones,
    similarity: base.similarity,
    changes: logChanges(base, changes),
  });
}

/** The document order and the section lists with the added ids at their ends. */
function appendAdded(base: BookState, changes: Changes): Pick<BookState, 'order' | 'sections'> {
  const bySection = new Map<string, string[]>();
  changes.added.forEach((id, i) => {
    const section = changes.addedSections[i] ?? '';
    const ids = bySection.get(section);
    if (ids) ids.push(id);
    else bySection.set(section, [id]);
  });
  const sections = new Map(base.sections);
  for (const [section, ids] of bySection) sections.set(section, listWithAll(base.sections.get(section) ?? EMPTY_LIST, ids));
  return { order: listWithAll(base.order, changes.added), sections: freezeMap(sections) };
}

const EMPTY_LIST: ChunkedList<string> = Object.freeze({ length: 0, height: 0, root: Object.freeze([]) });

/** Whether an entry's content or active flag changed after revision `from` (for the change log). */
function changedIn(entry: SkillEntry, from: number): boolean {
  return entry.contentRev > from || entry.activeRev > from;
}

/** The change log of a commit of `changes` to `base`. */
function logChanges(base: BookState, changes: Changes): ChangeLog {
  let count = 0;
  for (const entry of changes.entries.values()) {
    // too many to keep (a bulk load, a long draft): not worth going on
    if (changedIn(entry, base.revision) && ++count > GENERATION_IDS) return emptyChangeLog(changes.revision);
  }
  const hashes: number[] = [];
  for (const [id, entry] of changes.entries) if (changedIn(entry, base.revision)) hashes.push(keyHash(id));
  return appendChange(base.changes, { from: base.revision, revision: changes.revision, nextIdBefore: base.nextId, hashes });
}

/**
 * What running a batch and checking conflicts read: a frozen state, or a
 * {@link SkillbookDraft}'s journal over one.
 */
export interface BookReader {
  readonly revision: number;
  readonly nextId: number;
  readonly active: ActiveCounts;
  entry(id: string): SkillEntry | undefined;
  tombstone(id: string): number | undefined;
  /**
   * The ids whose content, active flag or tombstone changed after `base`, when that is known
   * and at most `budget` ids; `null` otherwise (see {@link changedAfter}).
   */
  changedAfter(base: number, budget: number): ChangedAfter | null;
}

/** A {@link BookReader} over a frozen state. */
export function stateReader(state: BookState): BookReader {
  return new StateReader(state);
}

class StateReader implements BookReader {
  constructor(private readonly state: BookState) {}

  get revision(): number {
    return this.state.revision;
  }

  get nextId(): number {
    return this.state.nextId;
  }

  get active(): ActiveCounts {
    return this.state.active;
  }

  entry(id: string): SkillEntry | undefined {
    return shardedGet(this.state.skills, id);
  }

  tombstone(id: string): number | undefined {
    return shardedGet(this.state.tombstones, id);
  }

  changedAfter(base: number, budget: number): ChangedAfter | null {
    return changedAfter(this.state.changes, base, budget, this.state.nextId);
  }
}

/** Runs a recipe on a draft of the state (for rare whole-book edits such as purge). */
export function editState(base: BookState, recipe: (state: MutableBookState) => void): BookState {
  return immer.produce(base, (draft) => {
    recipe(draft);
  });
}
