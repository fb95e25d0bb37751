import type { SessionPlan } from '../Scenario.ts';

/**
 * A durable session tree: every session a registered body (a unit of its own), each program
 * its own steps with its children's spawns (side by side) among them — and, with faults, the point at
 * which the process running it crashes. The tree is run twice: once without the crash, and
 * once with it, all in-memory state dropped at the crash and the run resumed from its records.
 */
export interface DurablePlan {
  readonly root: SessionPlan;
  readonly crash: DurableCrash | null;
}

/**
 * Where the process running a durable tree crashes: right after the k-th child outcome was
 * recorded, right after the k-th record of any kind (an id lease, a merge's place, an outcome:
 * so often in the middle of a child), just before or just after the root's commit reached the
 * store, or at a virtual time (in the middle of whatever runs then).
 */
export type DurableCrash =
  | { readonly at: 'child-result'; readonly after: number }
  | { readonly at: 'record'; readonly after: number }
  | { readonly at: 'append'; readonly when: 'before' | 'after' }
  | { readonly at: 'time'; readonly ms: number };

/** Every session of a durable tree, the root first. */
export function plansOf(root: SessionPlan): SessionPlan[] {
  const out = [root];
  for (const step of root.steps) if (step.kind === 'spawn') out.push(...plansOf(step.child));
  return out;
}
