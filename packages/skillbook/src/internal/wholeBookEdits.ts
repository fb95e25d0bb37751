/**
 * Edits of a book that do not come from operations: what a store does when it takes in a
 * document another program wrote (purge skills it deleted, take its skills as they are) or
 * reserves ids for writers that allocate on their own. Rare, and allowed to cost O(n).
 */
import { idSuffix } from '../createIdAllocator.ts';
import type { Section, Skill } from '../types.ts';
import { commitChanges, editState } from './BookState.ts';
import type { BookState, SkillEntry } from './BookState.ts';
import { appendChange } from './ChangeLog.ts';
import { listFromArray, listToArray } from './ChunkedList.ts';
import { freezeSkill, makeSkill } from './makeSkill.ts';
import { keyHash, shardedDelete, shardedGet, shardedSet } from './ShardedMap.ts';
import { die } from '../errors.ts';

/** Hard-deletes the skills of `ids` that exist, at `revision`, leaving tombstones; `null` when none exists. */
export function purgeState(state: BookState, ids: readonly string[], revision: number): BookState | null {
  const gone = new Map<string, Skill>();
  for (const id of ids) {
    const skill = shardedGet(state.skills, id)?.skill;
    if (skill) gone.set(id, skill);
  }
  if (gone.size === 0) return null;
  return editState(state, (d) => {
    d.revision = revision;
    d.changes = appendChange(state.changes, {
      from: state.revision,
      revision,
      nextIdBefore: state.nextId,
      hashes: [...gone.keys()].map(keyHash),
    });
    const active = { ...state.active };
    for (const [id, skill] of gone) {
      shardedDelete(d.skills, id);
      shardedSet(d.tombstones, id, revision);
      if (skill.active) active[skill.section as Section] -= 1;
    }
    d.active = active;
    d.order = listFromArray(listToArray(state.order).filter((id) => !gone.has(id)));
    for (const name of new Set([...gone.values()].map((s) => s.section))) {
      const list = state.sections.get(name);
      if (!list || list.length === 0) continue;
      const kept = listToArray(list).filter((id) => gone.get(id)?.section !== name);
      if (kept.length === 0) d.sections.delete(name);
      else d.sections.set(name, listFromArray(kept));
    }
  });
}

/** A skill as data (read back from a store's records): a {@link Skill} whose id is any string. */
export type PlainSkill = Omit<Skill, 'id'> & { readonly id: string };

/** What another writer left, as a store records it (see `Skillbook.adopt`). */
export interface AdoptedSkills {
  /** Skills as the other writer left them: each replaces the skill with its id, or is added. */
  readonly skills: readonly PlainSkill[];
  /** Ids it deleted outright. */
  readonly purged: readonly string[];
  /** Its `next_id` (the book keeps the larger of its own and this). */
  readonly nextId: number;
}

/** A skill as given, in the book's own shape and frozen. */
function ownSkill(s: PlainSkill): Skill {
  return freezeSkill(
    makeSkill({
      id: s.id,
      section: s.section,
      keywords: [...s.keywords],
      issue: s.issue,
      insight: s.insight ?? null,
      occurrences: [...s.occurrences],
      active: s.active,
      used_count: s.used_count,
      helpful_count: s.helpful_count,
      harmful_count: s.harmful_count,
      neutral_count: s.neutral_count,
      created: s.created_at,
      at: s.updated_at,
    }),
  );
}

/** Takes `change` in at `revision` (see `Skillbook.adopt`). */
export function adoptState(state: BookState, change: AdoptedSkills, revision: number): BookState {
  const entries = new Map<string, SkillEntry>();
  const added: string[] = [];
  const addedSections: string[] = [];
  const active = { context: state.active.context, harness: state.active.harness };
  let nextId = Math.max(state.nextId, change.nextId);
  for (const given of change.skills) {
    const skill = ownSkill(given);
    const before = entries.get(skill.id)?.skill ?? shardedGet(state.skills, skill.id)?.skill;
    if (before?.active) active[before.section as Section] -= 1;
    else if (!before) {
      added.push(skill.id);
      addedSections.push(skill.section);
    }
    if (skill.active) active[skill.section as Section] += 1;
    entries.set(skill.id, Object.freeze({ skill, contentRev: revision, activeRev: revision, countersRev: revision }));
    nextId = Math.max(nextId, idSuffix(skill.id) ?? 0);
  }
  const put = commitChanges(state, { revision, nextId, active, entries, added, addedSections });
  return (
    purgeState(
      put,
      change.purged.filter((id) => !entries.has(id)),
      revision,
    ) ?? put
  );
}

/** The state with `next_id` at least `nextId` (same revision, same skills); itself when it is there already. */
export function reserveState(state: BookState, nextId: number): BookState {
  if (!Number.isSafeInteger(nextId)) die('RESERVE_IDS_INVALID', nextId);
  if (nextId <= state.nextId) return state;
  return commitChanges(state, { revision: state.revision, nextId, active: state.active, entries: new Map(), added: [], addedSections: [] });
}
