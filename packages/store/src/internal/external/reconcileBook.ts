import type { PlainSkill, Skill, Skillbook } from '@cohort/skillbook';
import type { ExternalChanges } from '../../StoreNotice.ts';
import { sameSkillFields } from './bookChange.ts';
import { sameContent, sameSkill } from '../sequencing/contentConflicts.ts';
import { changeSummary } from './externalChanges.ts';
import { mapExternalIds } from './mapExternalIds.ts';
import type { IdKnowledge } from './mapExternalIds.ts';
import type { Renumbered } from '../disk/Ledger.ts';
import { reconcileSkill } from './reconcileSkill.ts';
import type { SkillConflict } from './reconcileSkill.ts';

/** A real conflict of one skill, with both sides. */
export interface ReconcileConflict extends SkillConflict {
  /** The skill's id in the live book. */
  readonly skillId: string;
  /** The live book's version, which stays (`null`: not in the live book). */
  readonly ours: Skill | null;
}

/** What {@link reconcileBook} gives. */
export interface BookReconciliation {
  /** The live book with the other writer's changes that do not conflict (a new revision), or the live book itself when there are none. */
  readonly book: Skillbook;
  /** The other writer's document in Cohort's ids. */
  readonly disk: Skillbook;
  /** Whether a version the writer started from was known (else: the conservative reconciliation). */
  readonly baseKnown: boolean;
  /** What the writer changed, against that version (without one: against the live book). */
  readonly changes: ExternalChanges;
  readonly conflicts: readonly ReconcileConflict[];
  /** Renumberings applied to the document (its id → the book's), remembered ones included. */
  readonly idMap: ReadonlyMap<string, string>;
  /** The renumberings made now, to remember. */
  readonly fresh: readonly Renumbered[];
}

/** The same skill (id and `created_at`) in `book`, if it holds it. */
function same(book: Skillbook | null, of: Skill): Skill | undefined {
  const found = book?.get(of.id);
  return found && sameSkill(found, of) ? found : undefined;
}

/**
 * The newest `updated_at` among the skills the document holds exactly as `base` has them: the
 * writer loaded a version at least that recent. A skill of `base` created after it may be one
 * the writer never saw — `base` may be newer than what it loaded — so its absence is no deletion.
 */
function newestUnchanged(base: Skillbook, disk: Skillbook): string {
  let newest = '';
  for (const d of disk.skills()) {
    const b = base.get(d.id);
    if (b && sameSkillFields(b, d) && d.updated_at > newest) newest = d.updated_at;
  }
  return newest;
}

/**
 * Reconciles another writer's document (`disk`) with the live book three ways, against the version
 * the writer started from (`base`; `null` when none is known): its skills are put in Cohort's
 * ids first ({@link mapExternalIds}), then each skill is reconciled on its own
 * ({@link reconcileSkill}): the writer's additions, changes, removals and counter increments
 * against `base` are rebased onto the live book with the conflict table, and what the live
 * book has that `base` lacks — Cohort's work the writer never saw — is left as it is. A skill
 * counts as deleted by the writer only when `base` had it, and was created before the newest
 * skill the document shows unchanged (else the writer may never have seen it). Reconciling the same document twice
 * changes nothing the second time. `at`: when (ACE's timestamp format); `counterBase`: a version
 * as likely to be the base (counters count from the later of the two). Pure: no I/O.
 */
export function reconcileBook(
  base: Skillbook | null,
  disk: Skillbook,
  live: Skillbook,
  ids: IdKnowledge,
  at: string,
  counterBase: Skillbook | null = null,
): BookReconciliation {
  const mapped = mapExternalIds(base, disk, live, ids);
  const b = mapped.base;
  const d = mapped.disk;
  const puts: PlainSkill[] = [];
  const purged: string[] = [];
  const conflicts: ReconcileConflict[] = [];
  const lists = { added: [] as string[], changed: [] as string[], removed: [] as string[], dropped: [] as string[] };
  const take = (id: string, before: Skill | undefined, theirs: Skill | undefined): void => {
    const ours = live.get(id);
    const mine = ours && (theirs ? sameSkill(ours, theirs) : before && sameSkill(ours, before)) ? ours : undefined;
    // the live book holds another skill under this id: the document's was renumbered, never this
    if (ours && !mine) return;
    const floor = counterBase && theirs ? same(counterBase, theirs) : undefined;
    const settled = reconcileSkill(before, theirs, mine, at, floor);
    if (settled.outcome === 'put' && settled.skill) puts.push(settled.skill);
    else if (settled.outcome === 'purge') purged.push(id);
    if (settled.conflict) conflicts.push({ skillId: id, ...settled.conflict, ours: mine ?? null });
  };
  for (const theirs of d.skills()) {
    const before = same(b, theirs);
    const reference = b ? before : same(live, theirs);
    if (!reference) lists.added.push(theirs.id);
    else if (!sameContent(reference, theirs)) lists.changed.push(theirs.id);
    else if (reference.active && !theirs.active) lists.removed.push(theirs.id);
    take(theirs.id, before, theirs);
  }
  if (b) {
    const seenUpTo = newestUnchanged(b, d);
    for (const before of b.skills()) {
      // created after everything the writer shows it saw: maybe never seen, so not deleted by it
      if (same(d, before) || before.created_at > seenUpTo) continue;
      lists.dropped.push(before.id);
      take(before.id, before, undefined);
    }
  }
  const changed = puts.length > 0 || purged.length > 0;
  const book = changed
    ? live.adopt({ skills: puts, purged, nextId: d.nextId }, { revision: live.revision + 1 })
    : live.reserveIds(d.nextId);
  return { book, disk: d, baseKnown: b !== null, changes: changeSummary(lists), conflicts, idMap: mapped.idMap, fresh: mapped.fresh };
}
