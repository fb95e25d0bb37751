import { formatSkillId, idSuffix } from '@cohort/skillbook';
import type { PlainSkill, Skill, Skillbook } from '@cohort/skillbook';
import { sameSkill } from '../sequencing/contentConflicts.ts';
import type { Renumbered } from '../disk/Ledger.ts';

/** What the store knows of ids when it takes in another writer's document. */
export interface IdKnowledge {
  /** Whether number `n` of the id counter was leased. */
  leased(n: number): boolean;
  /** The last number leased (new ids go past it). */
  readonly leasedThrough: number;
  /** The id an external skill (its id as the other writer wrote it, and its `created_at`) was renumbered to before, if it was. */
  remembered(id: string, createdAt: string): string | undefined;
}

/** Another writer's document and the version it started from, in Cohort's ids. */
export interface MappedDocument {
  readonly base: Skillbook | null;
  readonly disk: Skillbook;
  /** Every renumbering applied to the document (its id → the id in the book), remembered ones included. */
  readonly idMap: ReadonlyMap<string, string>;
  /** The renumberings made now, to remember. */
  readonly fresh: readonly Renumbered[];
}

const sectionOf = (s: Skill): 'context' | 'harness' => (s.section === 'harness' ? 'harness' : 'context');

/** Applies remembered renumberings to a book of the other writer's (`null`: nothing to rename). */
function renameRemembered(book: Skillbook, ids: IdKnowledge): { renamed: PlainSkill[]; purged: string[]; map: Map<string, string> } {
  const renamed: PlainSkill[] = [];
  const purged: string[] = [];
  const map = new Map<string, string>();
  for (const skill of book.skills()) {
    const to = ids.remembered(skill.id, skill.created_at);
    if (to === undefined || to === skill.id) continue;
    const there = book.get(to);
    purged.push(skill.id);
    // the renumbered skill is in the document already (the writer read it back): this one is a stale copy
    if (there && sameSkill(there, skill)) continue;
    // (a skill of the writer's own at the new id is a newcomer there, renumbered in turn)
    renamed.push({ ...skill, id: to });
    map.set(skill.id, to);
  }
  return { renamed, purged, map };
}

/**
 * `book` (the other writer's) with the renumberings remembered from its earlier saves applied:
 * in Cohort's ids as far as they are known, for comparing it with versions the store keeps;
 * and the ids it renamed: the skills the writer still holds under the ids it gave them (old id
 * → the id Cohort gave it). A writer that had loaded a version holding them under Cohort's ids
 * would hold them under those.
 */
export function inCohortIds(
  book: Skillbook,
  ids: IdKnowledge,
): { readonly book: Skillbook; readonly stillOld: ReadonlyMap<string, string> } {
  const { renamed, purged, map } = renameRemembered(book, ids);
  return { book: rebuilt(book, renamed, purged, book.nextId), stillOld: map };
}

function rebuilt(book: Skillbook, renamed: readonly PlainSkill[], purged: readonly string[], nextId: number): Skillbook {
  if (renamed.length === 0 && purged.length === 0 && nextId <= book.nextId) return book;
  return book.adopt({ skills: renamed, purged, nextId }, { revision: book.revision });
}

/**
 * Puts another writer's document (`disk`) and the version it started from (`base`) in
 * Cohort's ids. Cohort's ids are final, so an external skill is renumbered, once, when it is
 * a newcomer (not in `base` by id and `created_at`) under an id that one of the live book's
 * skills has with another `created_at`, or that fell in an id lease (ACE allocates from the
 * `next_id` it loaded). A skill renumbered before lands on the id it was given then, in the
 * document and in its base alike, so the writer saving it again is not a newcomer twice.
 */
export function mapExternalIds(base: Skillbook | null, disk: Skillbook, live: Skillbook, ids: IdKnowledge): MappedDocument {
  const { renamed, purged, map } = renameRemembered(disk, ids);
  const idMap = new Map(map);
  const fresh: Renumbered[] = [];
  const gone = new Set(purged);
  const newIds = new Set(renamed.map((s) => s.id));
  const taken = (id: string): boolean =>
    disk.has(id) || live.has(id) || newIds.has(id) || base?.has(id) === true || live.tombstone(id) !== undefined;
  let counter = Math.max(live.nextId, disk.nextId, ids.leasedThrough);
  for (const skill of disk.skills()) {
    if (gone.has(skill.id) || !mustRenumber(skill, base, live, newIds, ids)) continue;
    let to: string;
    do to = formatSkillId(sectionOf(skill), (counter += 1));
    while (taken(to));
    newIds.add(to);
    idMap.set(skill.id, to);
    fresh.push({ from: skill.id, createdAt: skill.created_at, to });
    renamed.push({ ...skill, id: to });
    purged.push(skill.id);
  }
  const mappedDisk = rebuilt(disk, renamed, purged, Math.max(disk.nextId, counter));
  if (!base) return { base: null, disk: mappedDisk, idMap, fresh };
  const now = new Map(fresh.map((r) => [`${r.createdAt}\u0000${r.from}`, r.to]));
  const fromBase = renameRemembered(base, { ...ids, remembered: (id, at) => now.get(`${at}\u0000${id}`) ?? ids.remembered(id, at) });
  return { base: rebuilt(base, fromBase.renamed, fromBase.purged, base.nextId), disk: mappedDisk, idMap, fresh };
}

/**
 * Whether a skill of the writer's must get a new id: one of the live book's skills has its id
 * (another `created_at`: Cohort's ids are final), or a skill renumbered just now took it, or
 * it is a newcomer (not in `base`) whose id fell in a lease.
 */
function mustRenumber(skill: Skill, base: Skillbook | null, live: Skillbook, newIds: ReadonlySet<string>, ids: IdKnowledge): boolean {
  const mine = live.get(skill.id);
  if (mine) return !sameSkill(mine, skill);
  if (newIds.has(skill.id)) return true;
  const before = base?.get(skill.id);
  if (before && sameSkill(before, skill)) return false;
  const n = idSuffix(skill.id);
  return n !== undefined && ids.leased(n);
}
