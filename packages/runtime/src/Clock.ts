/**
 * The runtime's only source of time. Every timer and timestamp (session timeouts, budgets,
 * `s.sleep`, skills' `created_at`/`updated_at`) goes through one, so a simulation can run a
 * whole session tree on virtual time. It is also an xstate `Clock`, handed to the actor system.
 */
export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** The real clock: `Date.now()` and Node's timers. */
export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};
