/**
 * The tree of scenario 10, the same code durable (registered on every worker) and in process:
 * a root that fans out children that do almost nothing — one `add_skill` each — so that what
 * the rows measure is what a child costs the runtime that runs it.
 */
import type { Session } from '@cohort/runtime';

/** Called as each root session starts (the worker prints it: the root resumed after a kill). */
export const rootStarted: { hook: () => void } = { hook: () => undefined };

/** A child that adds one skill and returns its id. */
export async function leaf(s: Session<{ readonly i: number }>): Promise<string> {
  const added = await s.tools.add_skill({ section: 'harness', issue: `leaf ${s.input.i}`, insight: 'almost nothing' });
  if ('error' in added) throw new Error(`add_skill failed: ${added.error}`);
  return added.skill_id;
}

/** What a tree's root returns: how many of its children committed, and why the others failed (each reason once). */
export interface FanOutput {
  readonly committed: number;
  readonly failures: readonly string[];
}

/** A root that spawns `children` leaves at once. */
export async function fan(s: Session<{ readonly children: number }>): Promise<FanOutput> {
  rootStarted.hook();
  const outcomes = await Promise.all(
    Array.from({ length: s.input.children }, (_, i) => s.spawn(leaf, { input: { i }, name: `leaf ${i}` })),
  );
  const failures = new Set(outcomes.flatMap((o) => (o.status === 'failed' ? [`${o.failure.kind}: ${o.failure.message}`] : [])));
  return { committed: outcomes.filter((o) => o.status === 'committed').length, failures: [...failures] };
}

/** Every body of the tree, by name, as each worker registers them. */
export const treeBodies = { leaf, fan };
