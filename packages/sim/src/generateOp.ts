import type { Prng } from './createPrng.ts';
import type { Malformation, OpPlan, TargetPlan } from './Scenario.ts';

/** What an op's target may be drawn from. */
export interface OpContext {
  readonly seedSkills: number;
  /** A seed skill this session's siblings also target (conflicting writes), if any. */
  readonly hot: number | null;
  /** An explicit skill id this session's siblings may also ADD (`id_exists` conflicts). */
  readonly sharedId: string | null;
  /** Draw malformed ops at all. */
  readonly faults: boolean;
}

const MALFORMATIONS: readonly Malformation[] = [
  'unknown-type',
  'missing-issue',
  'empty-id',
  'bad-tag',
  'extra-key',
  'not-an-object',
  'bad-delta',
];
const WORDS = ['retry', 'cache', 'paginate', 'timeout', 'schema', 'backoff', 'index', 'token', 'locale', 'quota'] as const;

/**
 * Draws one op of a scripted session: ADD / UPDATE / TAG / REMOVE on a seed skill (often the
 * one its siblings target too), a skill it can see, one it added, an id its siblings also
 * ADD, or a missing id; now and then malformed.
 *
 * @example
 * generateOp(createPrng(1), { seedSkills: 4, hot: 2, sharedId: null, faults: true }, 's-a');
 */
export function generateOp(prng: Prng, ctx: OpContext, label: string): OpPlan {
  const type = prng.weighted({ ADD: 36, UPDATE: 26, TAG: 24, REMOVE: 14 });
  const invalid = ctx.faults && prng.chance(0.08) ? prng.pick(MALFORMATIONS) : null;
  const text = `${prng.pick(WORDS)} ${label}`;
  const section = prng.chance(0.7) ? 'context' : 'harness';
  if (type === 'ADD') {
    const explicit = ctx.sharedId !== null && prng.chance(0.3);
    return { type, target: explicit && ctx.sharedId ? { from: 'shared', name: ctx.sharedId } : null, text, section, invalid };
  }
  return { type, target: generateTarget(prng, ctx), text, section, invalid };
}

/** Draws which existing (or missing) skill an op targets. */
export function generateTarget(prng: Prng, ctx: OpContext): TargetPlan {
  const from = prng.weighted({ hot: ctx.hot === null ? 0 : 40, seed: 20, visible: 20, own: 14, missing: 6 });
  if (from === 'hot' && ctx.hot !== null) return { from: 'seed', index: ctx.hot };
  if (from === 'seed' || from === 'hot') return { from: 'seed', index: prng.int(0, Math.max(0, ctx.seedSkills - 1)) };
  if (from === 'missing') return { from: 'missing' };
  return { from, index: prng.int(0, 50) };
}
