import { createIdAllocator, idSuffix } from '@cohort/skillbook';
import type { AppliedOp, Conflict, Section, Skillbook } from '@cohort/skillbook';
import type { IdLeases } from './IdLeases.ts';

/** The result of {@link remapIds}. */
export interface Remapped {
  readonly ops: readonly AppliedOp[];
  /** Old id → new id; empty when nothing was taken. */
  readonly idMap: ReadonlyMap<string, string>;
  /** ADDs whose id is final and was taken (`id_exists`). */
  readonly conflicts: readonly Conflict[];
}

/** How a commit's ADD ids were chosen: which its sessions named, and whether the others came from leases. */
export interface IdOrigins {
  readonly explicit: ReadonlySet<string>;
  readonly allocation: 'leased' | 'unleased';
}

/** Whether an unleased id must be given another: it is taken, or it falls in a lease (whose holder will allocate it). */
function mustMove(id: string, free: boolean, leases: IdLeases): boolean {
  if (!free) return true;
  const n = idSuffix(id);
  return n !== undefined && leases.covers(n);
}

/**
 * Checks a commit's ADD ids against `book`. An id the session chose itself, or one drawn from
 * a lease, is final: kept when free, an `id_exists` conflict when taken (a leased id is never
 * taken between writers that lease; an external skill that fell in a lease is renumbered when
 * the store takes it in). An id allocated without a lease is given a fresh one when it is
 * taken or falls in a lease, and the commit's later ops on it follow.
 */
export function remapIds(book: Skillbook, ops: readonly AppliedOp[], origins: IdOrigins, leases: IdLeases): Remapped {
  const taken = new Set<string>();
  const idMap = new Map<string, string>();
  const conflicts: Conflict[] = [];
  let allocator: ReturnType<typeof createIdAllocator> | null = null;
  const fresh = (section: string): string => {
    allocator ??= createIdAllocator(Math.max(book.nextId, leases.through));
    for (;;) {
      const id: string = allocator.allocate(section as Section);
      if (!book.has(id) && !taken.has(id)) return id;
    }
  };
  const out = ops.map((op, opIndex): AppliedOp => {
    if (op.type !== 'ADD') {
      const mapped = idMap.get(op.skill_id);
      return mapped === undefined ? op : { ...op, skill_id: mapped };
    }
    const id = op.skill_id;
    const free = !book.has(id) && !taken.has(id);
    const final = origins.allocation === 'leased' || origins.explicit.has(id);
    if (final || !mustMove(id, free, leases)) {
      if (free) taken.add(id);
      else conflicts.push({ opIndex, type: 'ADD', skillId: id, reason: 'id_exists', revision: book.revision });
      return op;
    }
    const next = fresh(op.section);
    taken.add(next);
    idMap.set(id, next);
    return { ...op, skill_id: next };
  });
  return { ops: out, idMap, conflicts };
}
