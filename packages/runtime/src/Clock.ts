import { systemStoreClock } from '@cohort/store';
import type { StoreClock } from '@cohort/store';

/**
 * The runtime's only source of time. Every timer and timestamp (session timeouts, budgets,
 * `s.sleep`, skills' `created_at`/`updated_at`) goes through one, so a simulation can run a
 * whole session tree on virtual time. It is also an xstate `Clock`, handed to the actor system,
 * and the store's clock: one clock serves a runtime and its store.
 */
export type Clock = StoreClock;

/** The real clock: `Date.now()` and Node's timers. */
export const systemClock: Clock = systemStoreClock;
