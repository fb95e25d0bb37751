import { defaultLimits } from '@cohort/runtime';
import { createPrng } from './createPrng.ts';
import type { Prng } from './createPrng.ts';
import { generateSession } from './generateSession.ts';
import { generateExternal } from './external/generateExternal.ts';
import { generateWriters } from './generateWriters.ts';
import { generateDurable } from './durable/generateDurable.ts';
import type { EpochPlan, PolicyName, Scenario, ScenarioLimits, StorePlan } from './Scenario.ts';
import type { ResolvedSimOptions } from './SimOptions.ts';

/** Sessions per epoch, at most (the tree, not just the roots). */
const SESSIONS_PER_EPOCH = 24;

/**
 * Generates a scenario from the seed: policy, limits, budget, the store and its faults, one
 * to three epochs of session trees (a process crash ends an epoch; the next reopens the store),
 * maybe another program saving the file store's document meanwhile, and for some seeds many
 * writers on the store at once. Pure: the same options give the same scenario. Part of the scenario depends on the
 * mutation only in that a mutated run uses the very scenario of the unmutated one.
 *
 * @example
 * const scenario = generateScenario(resolveSimOptions({ seed: 12 }));
 * scenario.epochs.length; // 1, 2 or 3
 */
export function generateScenario(options: ResolvedSimOptions): Scenario {
  const root = createPrng(options.seed);
  const faults = options.faults;
  const limits = generateLimits(root.fork('limits'), faults);
  const policy = root.fork('policy').weighted<PolicyName>({ reject: 50, rebase: 20, 'last-writer-wins': 15, resolver: 15 });
  const budgetPrng = root.fork('budget');
  const budgetTokens = faults && budgetPrng.chance(0.25) ? budgetPrng.int(30, 200) : null;
  const store = generateStore(root.fork('store'), options);
  const seedSkills = root.fork('book').int(1, 6);
  const crashes = store.kind === 'file' && faults ? crashPlan(root.fork('crash')) : [];
  const epochs: EpochPlan[] = [];
  const sessions = root.fork('sessions');
  for (let e = 0; e <= crashes.length; e++) {
    const ctx = { seedSkills, maxDepth: limits.maxDepth, faults, budgeted: budgetTokens !== null, quota: SESSIONS_PER_EPOCH };
    const count = sessions.int(1, options.maxRoots);
    // root sessions also share a hot skill: their commits meet at the root (and the store)
    const hot = sessions.chance(0.6) ? sessions.int(0, seedSkills - 1) : null;
    const roots = Array.from({ length: count }, (_, i) => ({
      startAt: sessions.pick([0, 0, 0, 1, 5, 10, 20]),
      session: generateSession(sessions, ctx, `e${e + 1}r${i + 1}`, 0, hot, null),
    }));
    epochs.push({ roots, crash: crashes[e] ?? null });
  }
  const external = store.kind === 'file' && faults ? generateExternal(root.fork('external'), epochs.length) : null;
  // drawn from a prng of its own, so that a seed's epochs are the same with or without it
  const writers = generateWriters(root.fork('writers'), {
    seedSkills,
    maxDepth: limits.maxDepth,
    faults,
    budgeted: budgetTokens !== null,
    quota: 0,
  });
  const durable = generateDurable(root.fork('durable'), { seedSkills, faults });
  return { seedSkills, policy, limits, budgetTokens, store, epochs, external, writers, durable };
}

function generateLimits(prng: Prng, faults: boolean): ScenarioLimits {
  return {
    maxDepth: defaultLimits.maxDepth,
    maxChildren: faults && prng.chance(0.25) ? prng.int(1, 2) : 16,
    maxOpsPerCommit: faults && prng.chance(0.12) ? prng.int(3, 8) : 1_000,
    maxMergeQueue: prng.chance(0.4) ? prng.int(1, 3) : 256,
  };
}

function generateStore(prng: Prng, options: ResolvedSimOptions): StorePlan {
  const kind = options.store === 'auto' ? (prng.chance(0.5) ? 'memory' : 'file') : options.store;
  const faulty = options.faults && prng.chance(0.3);
  if (kind === 'memory') {
    return { kind, fault: faulty ? { append: prng.int(1, 4), as: prng.chance(0.8) ? 'refusal' : 'throw' } : null };
  }
  return {
    kind,
    checkpointEvery: prng.pick([1, 2, 4, 256]),
    idleCheckpointMs: prng.pick([0, 5, 25]),
    fault: faulty ? { op: prng.pick(['append', 'sync', 'writeFile'] as const), nth: prng.int(1, 6) } : null,
  };
}

/** Half of the file-store runs crash once; a quarter of those crash again after reopening. */
function crashPlan(prng: Prng): EpochPlan['crash'][] {
  if (!prng.chance(0.5)) return [];
  const one = (): EpochPlan['crash'] => ({ afterOps: prng.int(1, 40), mode: prng.chance(0.7) ? 'power' : 'process' });
  return prng.chance(0.25) ? [one(), one()] : [one()];
}
