import { describe, expect, it } from 'vitest';
import { defaultLimits } from '@cohort/runtime';
import { generateScenario, resolveSimOptions } from '@cohort/sim';
import type { SessionPlan, Step } from '@cohort/sim';

/** Every session of a plan with its depth. */
function sessions(plan: SessionPlan, depth = 0): { plan: SessionPlan; depth: number }[] {
  return [{ plan, depth }, ...plan.steps.flatMap((s: Step) => (s.kind === 'spawn' ? sessions(s.child, depth + 1) : []))];
}

const FAULT_STEPS = new Set(['crash', 'abort']);

describe('generateScenario', () => {
  it('generateScenario - the same options give the same scenario', () => {
    const options = resolveSimOptions({ seed: 99 });
    expect(JSON.stringify(generateScenario(options))).toBe(JSON.stringify(generateScenario(options)));
  });

  it('generateScenario - without faults, trees stay within the runtime limits and script no fault', () => {
    for (let seed = 1; seed <= 200; seed++) {
      const scenario = generateScenario(resolveSimOptions({ seed, faults: false }));
      expect(scenario.limits).toMatchObject({ maxDepth: defaultLimits.maxDepth, maxChildren: 16 });
      expect(scenario.epochs.every((e) => e.crash === null)).toBe(true);
      expect(scenario.store.fault).toBeNull();
      for (const epoch of scenario.epochs) {
        const all = epoch.roots.flatMap((r) => sessions(r.session));
        expect(all.length).toBeLessThanOrEqual(30);
        for (const { plan, depth } of all) {
          expect(depth).toBeLessThanOrEqual(defaultLimits.maxDepth);
          expect(plan.timeoutMs).toBeNull();
          expect(plan.steps.some((s) => FAULT_STEPS.has(s.kind) || (s.kind === 'tool' && (s.thenThrow || s.op.invalid)))).toBe(false);
        }
      }
    }
  });

  it('generateScenario - with faults, only a deliberate spawn past the depth limit goes deeper', () => {
    let deep = 0;
    for (let seed = 1; seed <= 200; seed++) {
      for (const epoch of generateScenario(resolveSimOptions({ seed })).epochs) {
        for (const { plan, depth } of epoch.roots.flatMap((r) => sessions(r.session))) {
          if (depth <= defaultLimits.maxDepth) continue;
          deep += 1;
          expect(plan.name.endsWith('.deep')).toBe(true);
        }
      }
    }
    expect(deep).toBeGreaterThan(0);
  });

  it('generateScenario - about one seed in five runs two to four writers on the store at once, with hundreds of sessions between them', () => {
    const sizes: number[] = [];
    for (let seed = 1; seed <= 200; seed++) {
      const writers = generateScenario(resolveSimOptions({ seed })).writers;
      if (!writers) continue;
      expect(writers.runtimes.length).toBeGreaterThanOrEqual(2);
      expect(writers.runtimes.length).toBeLessThanOrEqual(4);
      sizes.push(writers.runtimes.flatMap((w) => w.roots.flatMap((r) => sessions(r.session))).length);
    }
    expect(sizes.length).toBeGreaterThan(25);
    expect(sizes.length).toBeLessThan(60);
    expect([...sizes].sort((a, b) => a - b)[sizes.length >> 1]).toBeGreaterThan(150);
  });

  it('generateScenario - a crash plan only comes with the file store, and every crashed epoch is followed by a reopening one', () => {
    for (let seed = 1; seed <= 200; seed++) {
      const scenario = generateScenario(resolveSimOptions({ seed }));
      const crashes = scenario.epochs.filter((e) => e.crash !== null).length;
      if (scenario.store.kind === 'memory') expect(crashes).toBe(0);
      expect(scenario.epochs[scenario.epochs.length - 1]?.crash).toBeNull();
      expect(scenario.epochs.length).toBe(crashes + 1);
    }
  });
});
