import type { Prng } from './createPrng.ts';
import { generateSession } from './generateSession.ts';
import type { SessionContext } from './generateSession.ts';
import type { SessionPlan, Step, WritersPlan } from './Scenario.ts';

/** How many seeds run many writers, and how wide their trees are. */
const SHARE = 0.2;
const CHILDREN = { min: 20, max: 50 } as const;
/** Sessions one writer may draw (its roots, their children and grandchildren). */
const QUOTA = 240;

/**
 * Draws the many-writers part of a scenario, for about one seed in five: two to four runtimes on
 * one store at once, each with one or two root sessions that fan out to a dozen or more
 * children (each with a program of its own, grandchildren included) — hundreds of sessions,
 * side by side. Null for the other seeds.
 *
 * @example
 * generateWriters(createPrng(4).fork('writers'), { seedSkills: 3, maxDepth: 2, faults: true, budgeted: false, quota: 0 });
 */
export function generateWriters(prng: Prng, base: SessionContext): WritersPlan | null {
  if (!prng.chance(SHARE)) return null;
  const runtimes = Array.from({ length: prng.int(2, 4) }, (_, w) => {
    const ctx: SessionContext = { ...base, quota: QUOTA };
    return {
      roots: Array.from({ length: prng.int(1, 2) }, (_, r) => ({
        startAt: prng.pick([0, 0, 1, 5]),
        session: wideRoot(prng, ctx, `w${w + 1}r${r + 1}`),
      })),
    };
  });
  return { runtimes };
}

/** A root session whose program spawns many children side by side, between writes of its own. */
function wideRoot(prng: Prng, ctx: SessionContext, name: string): SessionPlan {
  // its own program without spawns: the fan-out is added below
  const own = generateSession(prng, { ...ctx, quota: 0 }, name, 0, null, null);
  const hot = prng.chance(0.6) ? prng.int(0, Math.max(0, ctx.seedSkills - 1)) : null;
  const shared = prng.chance(0.3) ? `shared-${name}` : null;
  const fan: Step[] = [];
  for (let i = 0, n = prng.int(CHILDREN.min, CHILDREN.max); i < n && ctx.quota > 0; i++) {
    fan.push({ kind: 'spawn', child: generateSession(prng, ctx, `${name}.${i + 1}`, 1, hot, shared), wait: prng.chance(0.1) });
  }
  const cut = prng.int(0, own.steps.length);
  return { ...own, steps: [...own.steps.slice(0, cut), ...fan, ...own.steps.slice(cut)] };
}
