/**
 * The store's only source of time: timestamps in notices and journal lines, the idle
 * checkpoint delay, lock leases and lock-wait back-off all go through one, so a simulation
 * can run a file store on virtual time. Structurally the same as the runtime's `Clock`, so a
 * runtime clock (or the simulation's) can be passed as is.
 *
 * @example
 * ```ts
 * const store = await FileStore.open('book.json', { clock: systemStoreClock });
 * ```
 */
export interface StoreClock {
  /** Milliseconds since the epoch. */
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** The real clock: `Date.now()` and Node's timers. */
export const systemStoreClock: StoreClock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/**
 * Resolves after `ms` on `clock`. Used for lock-wait back-off, so waiting follows virtual
 * time in a simulation.
 */
export function sleepOn(clock: StoreClock, ms: number): Promise<void> {
  return new Promise((resolve) => {
    clock.setTimeout(resolve, ms);
  });
}
