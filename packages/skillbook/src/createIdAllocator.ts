import type { Section, SkillId } from './types.ts';
import { die } from './errors.ts';

/**
 * The numeric suffix of an id like `context-00012` (12), or `undefined` when the id does not
 * look like that or its suffix is beyond 2^53 (no counter can reach it).
 */
export function idSuffix(id: string): number | undefined {
  const match = ID_PATTERN.exec(id);
  if (!match) return undefined;
  const n = Number(match[1]);
  return n <= Number.MAX_SAFE_INTEGER ? n : undefined;
}

/** Ids whose numeric suffix keeps a counter ahead: letters or `_`, a dash, digits. */
const ID_PATTERN = /^[A-Za-z_]+-([0-9]+)$/;

/** ACE's id for counter value `n`: `<section>-<n, zero-padded to 5>` (Python `{:05d}`, sign included). */
export function formatSkillId(section: Section, n: number): SkillId {
  const digits = n < 0 ? `-${String(-n).padStart(4, '0')}` : String(n).padStart(5, '0');
  return `${section}-${digits}` as SkillId;
}

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
