import { describe, expect, it } from 'vitest';
import { SimTally, simulate } from '@cohort/sim';

const SEEDS = 200;

describe('many seeds', () => {
  it(`seeds - ${SEEDS} seeds of session trees with injected faults keep all twelve invariants`, async () => {
    const tally = new SimTally();
    const kinds = new Set<string>();
    const harness = new Set<string>();
    const crashes = new Set<string>();
    for (let seed = 1; seed <= SEEDS; seed++) {
      const report = await simulate({ seed });
      tally.add(report);
      for (const { event } of report.timeline) {
        if (event.type === 'session.failed') kinds.add(event.failure.kind);
        if (event.type.startsWith('sim.') || event.type.startsWith('store.')) harness.add(event.type);
        if (event.type === 'sim.crash') harness.add(`crash:${event.mode}`);
        if (event.type === 'sim.durable') harness.add(`durable:${event.what}`);
        if (event.type === 'sim.durable' && event.what === 'crash') crashes.add(event.detail.replace(/ \d+( ms)?$/, ''));
      }
    }
    const summary = tally.summary();
    expect(summary.violations).toEqual([]);
    expect(summary.runs).toBe(SEEDS);
    // durable trees crashed at each kind of point and resumed from their records
    expect([...crashes].sort()).toEqual([
      'after child outcome',
      'after record',
      "after the root's append",
      'at',
      "before the root's append",
    ]);
    // the seeds exercise every fault the issue names (invalid_commit only comes from a broken runtime)
    expect([...kinds].sort()).toEqual(['aborted', 'budget_exhausted', 'cancelled', 'conflict', 'crashed', 'limit_exceeded', 'timeout']);
    for (const expected of [
      'sim.fault',
      'sim.crash',
      'crash:power',
      'crash:process',
      'sim.reopen',
      'store.io_failed',
      'store.lock_taken_over',
      'sim.write',
      'sim.writers',
      'durable:crash',
      'durable:resume',
    ]) {
      expect(harness, expected).toContain(expected);
    }
  }, 120_000);
});
