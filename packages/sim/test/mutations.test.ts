import { describe, expect, it } from 'vitest';
import { simulate } from '@cohort/sim';
import type { InvariantName, SimMutation } from '@cohort/sim';

/** How many seeds a broken variant may survive, at most. */
const BOUND = 40;

/**
 * The checker can fail: each deliberately broken variant is run seed after seed until an
 * invariant catches it, and the invariant that should is among those that did. The same seed
 * on the real runtime passes, so the mutation is what broke it.
 */
const cases: { mutation: SimMutation; what: string; caughtBy: InvariantName; bound?: number }[] = [
  { mutation: 'shared-draft', what: 'a shared, non-isolated draft', caughtBy: 'serialisable' },
  { mutation: 'interleaved-merge', what: 'a merge that interleaves with other work', caughtBy: 'audit-blocks' },
  { mutation: 'keep-failed-writes', what: 'a failure that keeps its partial writes', caughtBy: 'failed-work-discarded' },
  {
    mutation: 'unleased-ids',
    what: "ids from a counter of the runtime's own, not from leases (several runtimes on one store)",
    caughtBy: 'ids-as-told',
  },
  { mutation: 'flat-audit', what: 'a root commit persisted as one block of the root session', caughtBy: 'persisted-audit' },
  { mutation: 'ack-before-sync', what: 'a store that acknowledges before syncing', caughtBy: 'crash-recovery' },
  // only runs where another program saves the document can catch it (about one in four)
  {
    mutation: 'stale-base',
    what: "a file store that merges another program's document against the version it last wrote",
    caughtBy: 'external-merge',
    bound: 80,
  },
  // only seeds with a durable tree (about three in ten) whose crash comes after a child's outcome was recorded
  {
    mutation: 'durable-rerun-recorded',
    what: 'a resumed durable run that runs children whose outcome was recorded again',
    caughtBy: 'recorded-once',
  },
  // only where two children of one session were recorded, ending in another order than they were spawned in
  {
    mutation: 'durable-forget-merge-order',
    what: 'a resumed durable session that forgets the recorded order of its children’s merges',
    caughtBy: 'durable-resume',
    bound: 80,
  },
];

describe('the checker can fail', () => {
  for (const { mutation, what, caughtBy, bound = BOUND } of cases) {
    it(`mutations - ${what} (${mutation}) is caught by ${caughtBy} within ${bound} seeds`, async () => {
      let caught: { seed: number; broken: InvariantName[] } | null = null;
      for (let seed = 1; seed <= bound && !caught; seed++) {
        const report = await simulate({ seed, mutation });
        if (!report.ok) caught = { seed, broken: report.invariants.filter((i) => !i.ok).map((i) => i.name) };
      }
      expect(caught, `${mutation} survived ${bound} seeds`).not.toBeNull();
      if (!caught) return;
      expect(caught.broken).toContain(caughtBy);
      expect((await simulate({ seed: caught.seed })).ok).toBe(true);
    });
  }
});
