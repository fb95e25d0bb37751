import type { IdAllocator, Section, SkillId } from './types.ts';

/**
 * The numeric suffix of an id like `context-00012` (12), or `undefined` when the id does not
 * look like that or its suffix is beyond 2^53 (no counter can reach it).
 */
export function idSuffix(id: string): number | undefined {
  // an ADD reads back the id just allocated: its number is known (see `formatSkillId`)
  if (id === lastId) return lastSuffix;
  // ids whose numeric suffix keeps the counter ahead: /^[A-Za-z_]+-([0-9]+)$/, scanned by hand
  // (this runs for every ADD)
  const dash = id.lastIndexOf('-');
  if (dash < 1 || dash === id.length - 1) return undefined;
  for (let i = 0; i < dash; i++) {
    const c = id.charCodeAt(i);
    if (!((c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95)) return undefined;
  }
  let n = 0;
  for (let i = dash + 1; i < id.length; i++) {
    const c = id.charCodeAt(i);
    if (c < 48 || c > 57) return undefined;
    n = n * 10 + (c - 48);
  }
  return n <= Number.MAX_SAFE_INTEGER ? n : undefined;
}

/** ACE's id for counter value `n`: `<section>-<n, zero-padded to 5>` (Python `{:05d}`, sign included). */
export function formatSkillId(section: Section, n: number): SkillId {
  // flat strings, not `${section}-${digits}`: see `usualId`
  const id = usualId(section, n) ?? [section, n < 0 ? `-${String(-n).padStart(4, '0')}` : String(n).padStart(5, '0')].join('-');
  lastId = id;
  // what parsing the id gives: nothing for a negative or unsafe number; 0 for -0
  lastSuffix = n >= 0 && Number.isSafeInteger(n) ? n + 0 : undefined;
  return id as SkillId;
}

/**
 * An id of the usual width (a real section, 5 digits) made from its char codes, or null. Ids are
 * made flat: V8 makes a concatenation of 13 characters (every id of the usual width) a cons
 * string, which the first Map look-up copies flat and every charCodeAt walks (7 % of applying
 * an ADD); joining makes it flat but costs 90 ns more than the codes (W(10,000 × 10)).
 */
function usualId(section: string, n: number): string | null {
  const c = NAME_CODES[section];
  if (c === undefined || !(n >= 0 && n < 100_000 && Number.isInteger(n))) return null;
  return String.fromCharCode(c[0]!, c[1]!, c[2]!, c[3]!, c[4]!, c[5]!, c[6]!, 45, digit(n, 10_000), digit(n, 1000), digit(n, 100), digit(n, 10), digit(n, 1));
}

/** The char code of `n`'s digit at `place` (1, 10, 100, …). */
function digit(n: number, place: number): number {
  return 48 + (Math.floor(n / place) % 10);
}

/** The char codes of the real sections' names (seven letters each). */
const NAME_CODES: Readonly<Record<string, readonly number[]>> = Object.freeze({
  context: Object.freeze([...'context'].map((ch) => ch.charCodeAt(0))),
  harness: Object.freeze([...'harness'].map((ch) => ch.charCodeAt(0))),
});

/**
 * The last id formatted and its suffix: an ADD formats its id and then keeps the book's counter
 * ahead of it, which parsed it back (5 % of applying an ADD).
 */
let lastId = '';
let lastSuffix: number | undefined;

/** A shared id counter; see {@link createIdAllocator}. */
export interface IdAllocatorHandle {
  /** Allocates the next id (pass it as `ApplyOptions.allocateId`). */
  readonly allocate: IdAllocator;
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
  if (!Number.isSafeInteger(next)) throw new RangeError(`createIdAllocator: next must be a safe integer, got ${next}`);
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
