/**
 * The programmer errors of `@cohort/runtime`, in one table. Each throws an `Error` whose
 * `code` is stable: match on the code, never on the message. Nothing else throws — a body's
 * throw, a conflict, a store's failure are values (see {@link SessionFailure}).
 */
const messages = {
  /** `createRuntime` was given options its schema refuses. */
  RUNTIME_INVALID_OPTIONS: (detail: string) => `invalid runtime options: ${detail}`,
  /** `SimulatedClock.advance` was asked to move time by a negative or non-finite amount. */
  CLOCK_INVALID_ADVANCE: (ms: number) => `virtual time moves forward by a finite number of ms, not ${ms}`,
  /** `SimulatedClock.settle`: nothing left to fire and the work is still pending (a hang). */
  CLOCK_OUT_OF_TIMERS: () => 'virtual time ran out of timers with the work still pending',
  /** `SimulatedClock.settle`: the step bound was reached with the work still pending (a runaway). */
  CLOCK_RUNAWAY: (steps: number) => `virtual time fired ${steps} timers with the work still pending`,
} satisfies Record<string, (...args: never[]) => string>;

/** The stable code of a programmer error thrown by the runtime. */
export type RuntimeErrorCode = keyof typeof messages;

/** An error the runtime throws for a programmer error: its `code` is one of {@link RuntimeErrorCode}. */
export interface RuntimeError extends Error {
  readonly code: RuntimeErrorCode;
}

/**
 * Throws the programmer error `code` (immer's `die`): one place for every message, so each
 * code keeps one meaning.
 *
 * @example
 * try { die('CLOCK_RUNAWAY', 10); } catch (e) { (e as RuntimeError).code; } // 'CLOCK_RUNAWAY'
 */
export function die<C extends RuntimeErrorCode>(code: C, ...args: Parameters<(typeof messages)[C]>): never {
  const message = (messages[code] as (...a: Parameters<(typeof messages)[C]>) => string)(...args);
  throw Object.assign(new Error(message), { code });
}

/**
 * Whether `thrown` is a programmer error of the runtime (optionally: with this code).
 *
 * @example
 * isRuntimeError(new Error('x')); // false
 */
export function isRuntimeError(thrown: unknown, code?: RuntimeErrorCode): thrown is RuntimeError {
  if (!(thrown instanceof Error)) return false;
  const own = (thrown as { code?: unknown }).code;
  return typeof own === 'string' && own in messages && (code === undefined || own === code);
}
