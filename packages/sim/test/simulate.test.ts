import { describe, expect, it } from 'vitest';
import { simulate } from '@cohort/sim';
import type { SimReport } from '@cohort/sim';

/** The first seed whose scenario uses the file store and crashes the process mid-run. */
async function firstCrashingSeed(): Promise<number> {
  for (let seed = 1; seed < 200; seed++) {
    const report = await simulate({ seed, store: 'file' });
    if (report.timeline.some((e) => e.event.type === 'sim.crash' && !e.event.before.startsWith('the end'))) return seed;
  }
  throw new Error('no seed below 200 crashes mid-run');
}

function violations(report: SimReport): string[] {
  return report.invariants.filter((i) => !i.ok).flatMap((i) => i.detail.map((d) => `(${i.id}) ${i.name}: ${d}`));
}

describe('simulate', () => {
  it('simulate - the same seed and options give a byte-identical report', async () => {
    for (const options of [
      { seed: 7 },
      { seed: 7, store: 'memory' as const },
      { seed: await firstCrashingSeed(), store: 'file' as const },
    ]) {
      const first = JSON.stringify(await simulate(options));
      const second = JSON.stringify(await simulate(options));
      expect(second).toBe(first);
    }
  });

  it('simulate - a report names the seed, the scenario, the timeline and each of the twelve invariants', async () => {
    const report = await simulate({ seed: 11 });
    expect(report.seed).toBe(11);
    expect(report.options).toEqual({ seed: 11, store: 'auto', faults: true, maxRoots: 3 });
    expect(report.scenario.epochs.length).toBeGreaterThan(0);
    expect(report.timeline.some((e) => e.event.type === 'session.spawned')).toBe(true);
    expect(report.invariants.map((i) => i.name)).toEqual([
      'serialisable',
      'failed-work-discarded',
      'audit-blocks',
      'settles-once',
      'unique-ids',
      'no-unhandled-errors',
      'crash-recovery',
      'external-merge',
      'ids-as-told',
      'persisted-audit',
      'durable-resume',
      'recorded-once',
    ]);
    expect(violations(report)).toEqual([]);
  });

  it('simulate - the timeline carries no stack traces, so reports do not depend on the machine', async () => {
    for (let seed = 1; seed <= 20; seed++) expect(JSON.stringify(await simulate({ seed }))).not.toContain('"stack"');
  });

  it('simulate - different seeds give different scenarios', async () => {
    const scenarios = new Set<string>();
    for (let seed = 1; seed <= 10; seed++) scenarios.add(JSON.stringify((await simulate({ seed })).scenario));
    expect(scenarios.size).toBe(10);
  });

  it('simulate - without faults, the only failures are conflicts between concurrent writers', async () => {
    for (let seed = 1; seed <= 20; seed++) {
      const report = await simulate({ seed, faults: false });
      expect(violations(report)).toEqual([]);
      expect(report.stats.crashes).toBe(0);
      expect(Object.keys(report.stats.failures).filter((kind) => kind !== 'conflict')).toEqual([]);
      expect(report.stats.merges).toBeGreaterThan(0);
    }
  });

  it('simulate - bad options are refused at the boundary with a readable error', async () => {
    await expect(simulate({ seed: -1 })).rejects.toThrow(/invalid simulation options/);
    await expect(simulate({ seed: 1, store: 'disk' as never })).rejects.toThrow(/store/);
    await expect(simulate({ seed: 1, extra: true } as never)).rejects.toThrow(/extra/);
  });
});
