import type { Section, SkillId } from './types.ts';
import { die } from './errors.ts';
import { formatSkillId, idSuffix } from './internal/engine/skillIdText.ts';

export { formatSkillId, idSuffix };

/** A shared id counter; see {@link createIdAllocator}. */
export interface IdAllocatorHandle {
  /** Allocates the next id (pass it as `ApplyOptions.allocateId`). */
  readonly allocate: (section: Section) => SkillId;
  /** The counter: the number of the last id allocated (ACE's `next_id`). */
  readonly next: number;
  /** Raises the counter past an existing id's numeric suffix, so it is never allocated again. */
  observe(id: string): void;
}

/**
 * Creates an id allocator in ACE's format, `<section>-<5 digits>`, with one counter for all
 * sections, incremented before use. Share one between books (a session tree does) so that
 * ids never collide across them; `observe` keeps it ahead of ids it did not allocate.
 *
 * @example
 * const ids = createIdAllocator(book.nextId);
 * ids.allocate('context'); // 'context-00001' when book.nextId was 0
 * const r = book.applyBatch(batch, { allocateId: ids.allocate });
 */
export function createIdAllocator(next: number): IdAllocatorHandle {
  if (!Number.isSafeInteger(next)) die('IDS_UNSAFE_COUNTER', next);
  let counter = next;
  return {
    allocate: (section: Section): SkillId => {
      counter += 1;
      return formatSkillId(section, counter);
    },
    get next() {
      return counter;
    },
    observe(id: string): void {
      const n = idSuffix(id);
      if (n !== undefined && n > counter) counter = n;
    },
  };
}
