import { createIdAllocator } from '@cohort/skillbook';
import type { AppliedOp, Conflict, Section, Skillbook } from '@cohort/skillbook';

/** The result of {@link remapIds}. */
export interface Remapped {
  readonly ops: readonly AppliedOp[];
  /** Old id → new id; empty when nothing was taken. */
  readonly idMap: Readonly<Record<string, string>>;
  /** Explicit ids that were taken (`id_exists`). */
  readonly conflicts: readonly Conflict[];
}

/**
 * Gives every ADD whose id is already in `book` a fresh id (the book's allocator, skipping
 * taken ids), and rewrites the commit's later ops on that id. An id in `explicitIds` is the
 * session's own choice and is never re-mapped: taking it is an `id_exists` conflict.
 * This is how two writers allocating ids on their own never make an acknowledged ADD
 * overwrite another's skill.
 */
export function remapIds(book: Skillbook, ops: readonly AppliedOp[], explicitIds: ReadonlySet<string>): Remapped {
  const taken = new Set<string>();
  const idMap: Record<string, string> = {};
  const conflicts: Conflict[] = [];
  let allocator: ReturnType<typeof createIdAllocator> | null = null;
  const fresh = (section: string): string => {
    allocator ??= createIdAllocator(book.nextId);
    for (;;) {
      const id: string = allocator.allocate(section as Section);
      if (!book.get(id) && !taken.has(id)) return id;
    }
  };
  const out = ops.map((op, opIndex): AppliedOp => {
    if (op.type !== 'ADD') {
      const mapped = idMap[op.skill_id];
      return mapped === undefined ? op : { ...op, skill_id: mapped };
    }
    const id = op.skill_id;
    if (!book.get(id) && !taken.has(id)) {
      taken.add(id);
      return op;
    }
    if (explicitIds.has(id)) {
      conflicts.push({ opIndex, type: 'ADD', skillId: id, reason: 'id_exists', revision: book.revision });
      return op;
    }
    const next = fresh(op.section);
    taken.add(next);
    idMap[id] = next;
    return { ...op, skill_id: next };
  });
  return { ops: out, idMap, conflicts };
}
