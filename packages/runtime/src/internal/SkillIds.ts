import { createIdAllocator } from '@cohort/skillbook';
import type { AppliedOp, ApplyOptions, DraftBatchResult, OperationLimits, Section, SkillId } from '@cohort/skillbook';
import type { Clock } from '../Clock.ts';
import type { Draft } from '../Draft.ts';

/**
 * The skill ids of one runtime: one allocator for the whole session tree (siblings never
 * collide, and the id a session is told is the id its skill keeps), and a mark on every ADD
 * whose id it allocated — every other ADD's id was chosen by its session, and the store must
 * never renumber it.
 */
export class SkillIds {
  private allocator: ReturnType<typeof createIdAllocator>;
  /**
   * The ADD ops whose ids their session named (every other ADD's id was allocated here). Keyed
   * by the op, which merges pass up to the root as the same object, and weak: a mark goes with
   * its op instead of piling up for the runtime's lifetime as a set of ids would. The rare
   * named ADDs are marked rather than the allocated ones: a weak set entry is an ephemeron the
   * garbage collector traces on every collection, and marking each allocated ADD made a
   * validated write 13–26 % slower (bench row 2).
   */
  private readonly namedAdds = new WeakSet<AppliedOp>();
  /**
   * The ids allocated during the write in progress: the first `allocatedNow` of this list. It
   * is reused, never emptied: `length = 0` drops a list's storage, and every write then made
   * a new one (152 bytes a write, 15 MB over a 10,000-child fan-out; bench row 2).
   */
  private readonly allocating: string[] = [];
  private allocatedNow = 0;
  /** What every write applies with: made once, not per write (a write is a hot path). */
  private readonly writeOptions: ApplyOptions;

  constructor(nextId: number, clock: Clock, limits?: OperationLimits) {
    this.allocator = createIdAllocator(nextId);
    this.writeOptions = { clock, allocateId: (section: Section) => this.allocate(section), ...(limits ? { limits } : {}) };
  }

  /** Keeps allocation at or above the store's counter (after a load, or other writers' ids). */
  reset(nextId: number): void {
    if (nextId > this.allocator.next) this.allocator = createIdAllocator(nextId);
  }

  /** Applies a raw ACE batch to `draft` (refused past the operation limits), allocating the ids of its ADDs and marking them. */
  write(draft: Draft, raw: unknown): DraftBatchResult {
    this.allocatedNow = 0;
    const result = draft.write(raw, this.writeOptions);
    if (!result.ok) return result;
    for (const op of result.applied) {
      if (op.type !== 'ADD') continue;
      this.allocator.observe(op.skill_id);
      if (!this.allocatedInThisWrite(op.skill_id)) this.namedAdds.add(op);
    }
    return result;
  }

  /** Whether this runtime allocated the id of `op`, an ADD one of its sessions wrote (false: the session named the id). */
  isAllocated(op: AppliedOp): boolean {
    return !this.namedAdds.has(op);
  }

  private allocate(section: Section): SkillId {
    const id = this.allocator.allocate(section);
    this.allocating[this.allocatedNow++] = id;
    return id;
  }

  private allocatedInThisWrite(id: string): boolean {
    for (let i = 0; i < this.allocatedNow; i++) if (this.allocating[i] === id) return true;
    return false;
  }
}
