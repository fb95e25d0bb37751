import type { Prng } from '../createPrng.ts';
import { generateOp, generateTarget } from '../generateOp.ts';
import type { OpContext } from '../generateOp.ts';
import type { SessionPlan, Step } from '../Scenario.ts';
import type { DurableCrash, DurablePlan } from './DurablePlan.ts';

/** What a durable tree is drawn for. */
export interface DurableContext {
  readonly seedSkills: number;
  readonly faults: boolean;
}

/** Sessions of one durable tree, at most. */
const QUOTA = 9;
const THINK_MS = [0, 1, 2, 3, 5, 8, 13] as const;

/**
 * Draws a durable tree for about three seeds in ten (null otherwise), with a crash point when
 * faults are on. Its sessions spawn their children (side by side) among their own writes: a
 * resumed session must merge each recorded child after as many of its own writes as before,
 * whatever the children's timing after the resume.
 *
 * @example
 * generateDurable(createPrng(3).fork('durable'), { seedSkills: 3, faults: true });
 */
export function generateDurable(prng: Prng, ctx: DurableContext): DurablePlan | null {
  if (!prng.chance(0.3)) return null;
  const quota = { left: QUOTA };
  const hot = prng.chance(0.6) ? prng.int(0, ctx.seedSkills - 1) : null;
  const root = durableSession(prng, ctx, quota, { name: 'd1', depth: 0, hot, shared: null });
  return { root, crash: ctx.faults ? crashPoint(prng) : null };
}

function crashPoint(prng: Prng): DurableCrash {
  const at = prng.weighted({ 'child-result': 35, record: 25, append: 20, time: 20 });
  if (at === 'child-result') return { at, after: prng.int(1, 6) };
  if (at === 'record') return { at, after: prng.int(1, 24) };
  if (at === 'append') return { at, when: prng.chance(0.5) ? 'before' : 'after' };
  return { at, ms: prng.int(0, 40) };
}

interface Place {
  readonly name: string;
  readonly depth: number;
  readonly hot: number | null;
  readonly shared: string | null;
}

function durableSession(prng: Prng, ctx: DurableContext, quota: { left: number }, at: Place): SessionPlan {
  quota.left -= 1;
  const opCtx: OpContext = { seedSkills: ctx.seedSkills, hot: at.hot, sharedId: at.shared, faults: ctx.faults };
  // a child mostly takes its own time: siblings end in another order than they were spawned in
  const steps: Step[] = at.depth > 0 && prng.chance(0.6) ? [{ kind: 'think', ms: prng.int(1, 30) }] : [];
  const own = prng.int(1, 4);
  for (let i = 0; i < own; i++) {
    const label = `${at.name}.${i + 1}`;
    const kind = prng.weighted({ tool: 40, batch: 20, think: 30, read: 10 });
    if (kind === 'tool') steps.push({ kind, op: generateOp(prng, opCtx, label), thenThrow: false });
    else if (kind === 'batch') {
      steps.push({ kind, ops: Array.from({ length: prng.int(1, 3) }, (_, k) => generateOp(prng, opCtx, `${label}.${k + 1}`)) });
    } else if (kind === 'think') steps.push({ kind, ms: prng.pick(THINK_MS) });
    else steps.push({ kind, target: generateTarget(prng, opCtx) });
  }
  if (ctx.faults && prng.chance(0.15)) {
    const fault: Step = prng.chance(0.6)
      ? { kind: 'crash', firstAttemptOnly: false, value: prng.chance(0.8) ? 'error' : 'non-error' }
      : { kind: 'abort', reason: `scripted abort in ${at.name}` };
    steps.splice(prng.int(0, steps.length), 0, fault);
  }
  // children among the session's own steps: a child's outcome may come before or after the writes that follow its spawn
  const children = at.depth < 2 ? Math.min(quota.left, prng.int(at.depth === 0 ? 1 : 0, at.depth === 0 ? 3 : 2)) : 0;
  const hot = prng.chance(0.6) ? prng.int(0, ctx.seedSkills - 1) : null;
  const shared = prng.chance(0.3) ? `shared-${at.name}` : null;
  for (let c = 1; c <= children; c++) {
    const child = durableSession(prng, ctx, quota, { name: `${at.name}.${c}`, depth: at.depth + 1, hot, shared });
    steps.splice(prng.int(0, steps.length), 0, { kind: 'spawn', child, wait: false });
  }
  return { name: at.name, timeoutMs: null, budget: null, retry: null, stubborn: false, steps };
}
