import type { Prng } from './createPrng.ts';
import { generateOp, generateTarget } from './generateOp.ts';
import type { OpContext } from './generateOp.ts';
import type { SessionPlan, Step } from './Scenario.ts';

/** What session generation needs to know about the whole scenario. */
export interface SessionContext {
  readonly seedSkills: number;
  readonly maxDepth: number;
  readonly faults: boolean;
  /** Whether the runtime has a token budget (sessions then charge tokens). */
  readonly budgeted: boolean;
  /** Sessions still allowed in this epoch (shared by the whole tree; keeps runs small). */
  quota: number;
}

const THINK_MS = [0, 0, 1, 2, 5, 5, 10, 20] as const;

/**
 * Draws a session's plan: spawn options (timeout, carved budget, retry), and a program of
 * tool calls, batches, think-times, spawns, charges and faults (crash before/after op k,
 * a throw inside a tool callback, an explicit abort, a budget overrun, a spawn past the
 * depth limit). Children of one parent share a hot seed skill and an explicit id, so
 * siblings write conflicting changes.
 *
 * @example
 * generateSession(createPrng(3), { seedSkills: 4, maxDepth: 2, faults: true, budgeted: false, quota: 20 }, 'r1', 0, null, null);
 */
export function generateSession(
  prng: Prng,
  ctx: SessionContext,
  name: string,
  depth: number,
  hot: number | null,
  sharedId: string | null,
): SessionPlan {
  ctx.quota -= 1;
  const opCtx: OpContext = { seedSkills: ctx.seedSkills, hot, sharedId, faults: ctx.faults };
  const childHot = prng.chance(0.6) ? prng.int(0, Math.max(0, ctx.seedSkills - 1)) : null;
  const childShared = prng.chance(0.3) ? `shared-${name}` : null;
  const steps: Step[] = [];
  const length = prng.int(1, depth === 0 ? 7 : depth === 1 ? 6 : 4);
  let writes = 0;
  for (let i = 0; i < length; i++) {
    const canSpawn = depth < ctx.maxDepth && ctx.quota > 0;
    const kind = prng.weighted({
      tool: 30,
      batch: 14,
      think: 20,
      read: 4,
      spawn: canSpawn ? (depth === 0 ? 22 : 14) : 0,
      charge: ctx.budgeted ? 6 : 0,
    });
    const label = `${name}.${i + 1}`;
    if (kind === 'tool') {
      writes += 1;
      steps.push({ kind, op: generateOp(prng, opCtx, label), thenThrow: false });
    } else if (kind === 'batch') {
      writes += 1;
      const ops = Array.from({ length: prng.int(1, 3) }, (_, k) => generateOp(prng, opCtx, `${label}.${k + 1}`));
      steps.push({ kind, ops });
    } else if (kind === 'think') steps.push({ kind, ms: prng.pick(THINK_MS) });
    else if (kind === 'read') steps.push({ kind, target: generateTarget(prng, opCtx) });
    else if (kind === 'charge') steps.push({ kind, tokens: prng.int(1, 12) });
    else {
      const child = generateSession(prng, ctx, `${name}.${i + 1}`, depth + 1, childHot, childShared);
      // siblings mostly run side by side (detached), so their drafts overlap and can conflict
      steps.push({ kind: 'spawn', child, wait: prng.chance(0.35) });
    }
  }
  let budget = budgetFor(prng, ctx);
  if (ctx.faults && prng.chance(0.3)) {
    const fault = injectFault(prng, ctx, steps, depth, name, writes);
    // an overrun needs a budget to overrun: carve one
    if (fault === 'overrun' && budget?.tokens === undefined) budget = { ...budget, tokens: prng.int(4, 30) };
  }
  return {
    name,
    timeoutMs: ctx.faults && prng.chance(0.14) ? prng.pick([1, 3, 5, 10, 20, 40]) : null,
    budget,
    retry: prng.chance(0.15) ? { attempts: prng.int(1, 2), on: ['crashed', 'conflict', 'timeout'] } : null,
    stubborn: ctx.faults && prng.chance(0.1),
    steps,
  };
}

function budgetFor(prng: Prng, ctx: SessionContext): SessionPlan['budget'] {
  if (!ctx.faults) return null;
  if (ctx.budgeted && prng.chance(0.2)) return { tokens: prng.int(4, 30) };
  if (prng.chance(0.05)) return { ms: prng.pick([2, 8, 15]) };
  return null;
}

/** Puts one fault somewhere in the program (after k of its steps). */
function injectFault(prng: Prng, ctx: SessionContext, steps: Step[], depth: number, name: string, writes: number): string {
  const at = prng.int(0, steps.length);
  const fault = prng.weighted({
    crash: 34,
    abort: 16,
    callback: writes > 0 ? 18 : 0,
    overrun: 12,
    deepSpawn: depth === ctx.maxDepth ? 10 : 0,
    nonError: 10,
  });
  if (fault === 'callback') {
    const index = steps.findIndex((s) => s.kind === 'tool');
    const step = steps[index];
    if (step?.kind === 'tool') steps[index] = { ...step, thenThrow: true };
    return fault;
  }
  const step: Step =
    fault === 'crash'
      ? { kind: 'crash', firstAttemptOnly: prng.chance(0.5), value: 'error' }
      : fault === 'nonError'
        ? { kind: 'crash', firstAttemptOnly: false, value: 'non-error' }
        : fault === 'abort'
          ? { kind: 'abort', reason: `scripted abort in ${name}` }
          : fault === 'overrun'
            ? { kind: 'charge', tokens: 1_000_000 }
            : {
                kind: 'spawn',
                child: { name: `${name}.deep`, timeoutMs: null, budget: null, retry: null, stubborn: false, steps: [] },
                wait: true,
              };
  steps.splice(at, 0, step);
  return fault;
}
