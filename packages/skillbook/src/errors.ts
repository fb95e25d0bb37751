/**
 * The programmer errors of `@cohort/skillbook`, in one table. Each throws a built-in error
 * (`RangeError` or `TypeError`, as before) whose `code` is stable: match on the code, never on
 * the message. Bad input is never thrown — a refused batch or document is a value (a
 * `SkillbookErrorInfo`), or a `SkillbookError` from `Skillbook.fromJSON`.
 */

const table = {
  /** `createIdAllocator` was given a counter no integer arithmetic can keep counting. */
  IDS_UNSAFE_COUNTER: { kind: RangeError, message: (next: number) => `createIdAllocator: next must be a safe integer, got ${next}` },
  /** A batch was applied to a book whose `next_id` is past 2^53: its own counter cannot count on. */
  BOOK_UNSAFE_NEXT_ID: { kind: RangeError, message: (next: number) => `createIdAllocator: next must be a safe integer, got ${next}` },
  /** `reserveIds` was given something other than a safe integer. */
  RESERVE_IDS_INVALID: { kind: RangeError, message: (next: number) => `reserveIds: expected a safe integer, got ${next}` },
  /** A clock returned something other than a finite number of milliseconds. */
  CLOCK_NOT_A_READING: { kind: RangeError, message: (ms: number) => `not a clock reading: ${ms}` },
  /** A clock reading falls outside the years ACE's timestamps can write (1–9999). */
  CLOCK_OUT_OF_RANGE: { kind: RangeError, message: (ms: number) => `clock reading out of range: ${ms}` },
  /** Something tried to change a frozen `Map` of a book. */
  FROZEN_MAP_WRITE: { kind: TypeError, message: () => 'This object has been frozen and should not be mutated' },
} satisfies Record<string, { readonly kind: new (message: string) => Error; readonly message: (...args: never[]) => string }>;

/** The stable code of a programmer error thrown by the Skillbook. */
export type SkillbookDefectCode = keyof typeof table;

/** An error the Skillbook throws for a programmer error: its `code` is one of {@link SkillbookDefectCode}. */
export interface SkillbookDefect extends Error {
  readonly code: SkillbookDefectCode;
}

/**
 * Throws the programmer error `code` (immer's `die`): one place for every message, so each
 * code keeps one meaning.
 */
export function die<C extends SkillbookDefectCode>(code: C, ...args: Parameters<(typeof table)[C]['message']>): never {
  const entry = table[code];
  const message = (entry.message as (...a: Parameters<(typeof table)[C]['message']>) => string)(...args);
  throw Object.assign(new entry.kind(message), { code });
}

/**
 * Whether `thrown` is a programmer error of the Skillbook (optionally: with this code).
 *
 * @example
 * try { createIdAllocator(1.5); } catch (e) { isSkillbookDefect(e, 'IDS_UNSAFE_COUNTER'); } // true
 */
export function isSkillbookDefect(thrown: unknown, code?: SkillbookDefectCode): thrown is SkillbookDefect {
  if (!(thrown instanceof Error)) return false;
  const own = (thrown as { code?: unknown }).code;
  return typeof own === 'string' && Object.hasOwn(table, own) && (code === undefined || own === code);
}
