import type { Prng } from '../createPrng.ts';
import type { ExternalOpPlan, ExternalPlan, ExternalSavePlan } from './ExternalPlan.ts';

function op(prng: Prng): ExternalOpPlan {
  const type = prng.weighted({ ADD: 40, UPDATE: 25, TAG: 25, REMOVE: 10 });
  return type === 'ADD' ? { type, section: prng.chance(0.7) ? 'context' : 'harness' } : { type, pick: prng.next() };
}

function save(prng: Prng, beforeOpen: boolean): ExternalSavePlan {
  return { at: beforeOpen ? 'before-open' : prng.int(1, 60), ops: Array.from({ length: prng.int(1, 3) }, () => op(prng)) };
}

/**
 * The other program of a file-store run, or `null` (most runs have none): its mode, and for
 * each epoch (and once more before the final reopen) up to four saves — most while the epoch's
 * runtime runs, some while no Cohort process does.
 *
 * @example
 * const external = generateExternal(createPrng(7).fork('external'), 2);
 */
export function generateExternal(prng: Prng, epochs: number): ExternalPlan | null {
  if (!prng.chance(0.5)) return null;
  const mode = prng.chance(0.5) ? 'reload' : 'long-running';
  const saves = Array.from({ length: epochs + 1 }, (_, e) => {
    const count = e === epochs ? prng.int(0, 1) : prng.int(1, 4);
    return Array.from({ length: count }, () => save(prng, e === epochs || prng.chance(0.2)));
  });
  return { mode, saves };
}
