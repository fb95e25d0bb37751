import { formatSkillId, idSuffix } from '@cohort/skillbook';
import type { PlainSkill, Skill, Skillbook } from '@cohort/skillbook';
import { sameSkill } from './contentConflicts.ts';
import type { Renumbered } from './Ledger.ts';

/** What the store knows of ids when it takes in another writer's document. */
export interface IdKnowledge {
  /** Whether number `n` of the id counter was leased. */
  leased(n: number): boolean;
  /** The last number leased (new ids go past it). */
  readonly leasedThrough: number;
  /** External skills renumbered before. */
  readonly remembered: readonly Renumbered[];
}

/** The other writer's document with its newcomers renumbered, and the renumberings that are new. */
export interface RenumberedDocument {
  readonly disk: Skillbook;
  /** Every renumbering applied (old id → new id), remembered ones included. */
  readonly idMap: ReadonlyMap<string, string>;
  /** The renumberings made now, to remember. */
  readonly fresh: readonly Renumbered[];
}

const key = (id: string, createdAt: string): string => `${createdAt}\u0000${id}`;

/**
 * Gives new ids to the other writer's newcomers whose id is Cohort's: a skill it added (not in
 * `base`, the document as the store last wrote it) under an id that one of Cohort's skills has
 * (`ours`), or that fell in an id lease (ACE allocated from a stale `next_id`). Cohort's ids are
 * final; the external skill is renumbered — once: a skill renumbered before (same id and
 * `created_at`) lands on the id it was given then, so the other writer saving it again is
 * not another newcomer.
 */
export function renumberExternal(base: Skillbook, ours: Skillbook, disk: Skillbook, ids: IdKnowledge): RenumberedDocument {
  const remembered = new Map(ids.remembered.map((r) => [key(r.from, r.createdAt), r.to]));
  let counter = Math.max(ours.nextId, disk.nextId, ids.leasedThrough);
  const renamed: PlainSkill[] = [];
  const purged: string[] = [];
  const idMap = new Map<string, string>();
  const fresh: Renumbered[] = [];
  for (const skill of disk.skills()) {
    const known = base.get(skill.id);
    if (known && sameSkill(known, skill)) continue;
    const before = remembered.get(key(skill.id, skill.created_at));
    const taken = (id: string): boolean => disk.has(id) || ours.has(id) || idMap.has(id);
    let to: string | undefined;
    if (before !== undefined) {
      const there = disk.get(before);
      // the renumbered skill is in the document already (the other writer read it back): this copy is stale
      if (there && sameSkill(there, skill)) {
        purged.push(skill.id);
        continue;
      }
      const ourCopy = ours.get(before);
      // the id it was given is free, or holds this very skill (ours since it was renumbered)
      to = disk.has(before) || idMap.has(before) || (ourCopy && !sameSkill(ourCopy, skill)) ? undefined : before;
    }
    if (to === undefined && !mustRenumber(skill, ours, ids) && before === undefined) continue;
    if (to === undefined) {
      do counter += 1;
      while (taken(formatSkillId(skill.section === 'harness' ? 'harness' : 'context', counter)));
      to = formatSkillId(skill.section === 'harness' ? 'harness' : 'context', counter);
      fresh.push({ from: skill.id, createdAt: skill.created_at, to });
    }
    idMap.set(skill.id, to);
    renamed.push({ ...skill, id: to });
    purged.push(skill.id);
  }
  if (purged.length === 0) return { disk, idMap, fresh };
  const next = Math.max(disk.nextId, counter);
  return { disk: disk.adopt({ skills: renamed, purged, nextId: next }, { revision: disk.revision }), idMap, fresh };
}

/** Whether an external newcomer's id is Cohort's: one of Cohort's skills has it, or it fell in a lease. */
function mustRenumber(skill: Skill, ours: Skillbook, ids: IdKnowledge): boolean {
  const mine = ours.get(skill.id);
  if (mine && !sameSkill(mine, skill)) return true;
  const n = idSuffix(skill.id);
  return n !== undefined && ids.leased(n);
}
