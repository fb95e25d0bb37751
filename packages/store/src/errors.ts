/**
 * The programmer errors of `@cohort/store`, in one table. Each throws an error whose `code` is
 * stable: match on the code, never on the message. Nothing else throws — a conflict, a full
 * disk, a lock held by another process, a damaged file are values (`StoreError`,
 * `StoreOpenError`).
 */
const table = {
  /** A store's constructor was given an option out of range (`MemoryStore`'s `historyLimit`). */
  STORE_INVALID_OPTION: {
    type: RangeError,
    message: (store: string, option: string, rule: string, got: unknown) => `${store}: ${option} must be ${rule}, got ${String(got)}`,
  },
  /** A journal line the store read whole decodes no more from the same bytes: the store's own bytes were changed under it. */
  STORE_LINE_CHANGED: { type: Error, message: (offset: number) => `journal line at byte ${offset} no longer decodes` },
  /** `makeCommit` (`@cohort/store/testing`) was given operations the book refuses: the test is wrong. */
  TESTING_BATCH_REFUSED: { type: Error, message: (why: string) => `makeCommit: the batch was refused: ${why}` },
  /** `replayAll` (`@cohort/store/testing`) was given ops that do not replay: the test is wrong. */
  TESTING_REPLAY_REFUSED: { type: Error, message: (why: string) => `replayAll: ${why}` },
} satisfies Record<string, { readonly type: ErrorConstructor | RangeErrorConstructor; readonly message: (...args: never[]) => string }>;

type Table = typeof table;

/** The stable code of a programmer error thrown by the store. */
export type StoreProgrammerErrorCode = keyof Table;

/** An error the store throws for a programmer error: its `code` is one of {@link StoreProgrammerErrorCode}. */
export interface StoreProgrammerError extends Error {
  readonly code: StoreProgrammerErrorCode;
}

/**
 * Throws the programmer error `code` (immer's `die`): one place for every message, so each
 * code keeps one meaning. An option out of range stays a `RangeError`.
 *
 * @example
 * try { die('STORE_LINE_CHANGED', 120); } catch (e) { (e as StoreProgrammerError).code; } // 'STORE_LINE_CHANGED'
 */
export function die<C extends StoreProgrammerErrorCode>(code: C, ...args: Parameters<Table[C]['message']>): never {
  const entry = table[code];
  const message = (entry.message as (...a: Parameters<Table[C]['message']>) => string)(...args);
  throw Object.assign(new entry.type(message), { code });
}

/**
 * Whether `thrown` is a programmer error of the store (optionally: with this code).
 *
 * @example
 * isStoreProgrammerError(new Error('x')); // false
 */
export function isStoreProgrammerError(thrown: unknown, code?: StoreProgrammerErrorCode): thrown is StoreProgrammerError {
  if (!(thrown instanceof Error)) return false;
  const own = (thrown as { code?: unknown }).code;
  return typeof own === 'string' && Object.hasOwn(table, own) && (code === undefined || own === code);
}
