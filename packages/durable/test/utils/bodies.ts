import type { Session, SessionOutcome } from '@cohort/runtime';

/** What a writer child is asked to do. */
export interface WriterInput {
  readonly issue: string;
  readonly delayMs?: number;
  /** A skill of its parent's draft to tag (the child sees its parent's view). */
  readonly tag?: string;
}

/** Called by each writer as it starts (the kill test counts runs of each child). */
export const started: { hook: (issue: string) => Promise<void> | void } = { hook: () => undefined };

/** A child body: waits, adds one skill, tags one of its parent's; returns the id it was told. */
export async function writer(s: Session<WriterInput>): Promise<string> {
  await started.hook(s.input.issue);
  if (s.input.delayMs) await s.sleep(s.input.delayMs);
  const added = await s.tools.add_skill({ section: 'harness', issue: s.input.issue, insight: `learned by ${s.input.issue}` });
  if ('error' in added) throw new Error(`add_skill failed: ${added.error}`);
  if (s.input.tag) {
    const tagged = await s.tools.tag_skill({ skill_id: s.input.tag, tag: 'helpful' });
    if ('error' in tagged) throw new Error(`tag_skill failed: ${tagged.error}`);
  }
  return added.skill_id;
}

/** A child body that writes, then crashes: nothing of it may reach the book. */
export async function crasher(s: Session): Promise<never> {
  await s.tools.add_skill({ section: 'harness', issue: 'crashed child', insight: 'must never reach the book' });
  throw new Error('simulated crash');
}

/** What a fan-out root is asked to do. */
export interface FanOutInput {
  readonly children: number;
  readonly delayMs?: number;
  readonly crash?: boolean;
}

/**
 * A root body: writes a skill of its own, then fans out to registered writers (each tags the
 * root's skill, which it sees in its view), one in-process child and, when asked, a crasher;
 * returns each spawn's status and the ids told.
 */
export async function fanOut(s: Session<FanOutInput>): Promise<{ statuses: string[]; told: string[]; failures: unknown[] }> {
  const own = await s.tools.add_skill({ section: 'harness', issue: 'root skill', insight: 'written by the root' });
  if ('error' in own) throw new Error(own.error);
  const rootId = own.skill_id;
  const spawns: Promise<SessionOutcome>[] = [];
  for (let i = 0; i < s.input.children; i++) {
    const input = { issue: `child ${i}`, delayMs: (s.input.delayMs ?? 0) * (1 + (i % 3)), tag: rootId };
    spawns.push(s.spawn(writer, { input, name: `writer ${i}` }));
  }
  spawns.push(
    s.spawn(
      async (c) => {
        const r = await c.tools.add_skill({ section: 'harness', issue: 'in-process child', insight: 'runs beside the root' });
        return 'error' in r ? r.error : r.skill_id;
      },
      { name: 'local' },
    ),
  );
  if (s.input.crash) spawns.push(s.spawn(crasher, { name: 'crasher' }));
  const outcomes = await Promise.all(spawns);
  const told = [rootId];
  for (const o of outcomes) if (o.status === 'committed' && typeof o.output === 'string') told.push(o.output);
  const failures = outcomes.flatMap((o) =>
    o.status === 'failed' ? [{ kind: o.failure.kind, message: o.failure.message, discarded: o.failure.discarded.ops }] : [],
  );
  return { statuses: outcomes.map((o) => o.status), told, failures };
}

/** Every body of the tests, registered by name on every worker. */
export const testBodies = {
  writer,
  crasher,
  fanOut,
  updater,
  rivals,
  nested,
  tree,
  deeper,
  sleeper,
  sleepers,
  failsDeep,
  spawnsFailing,
  pulse,
  pulses,
};

/** Called by each pulse with the wall-clock ms its body started and ended at (the concurrency test's log). */
export const ran: { hook: (issue: string, from: number, to: number) => Promise<void> | void } = { hook: () => undefined };

/** A child body that does almost nothing: waits `ms`, then reports when it ran. */
export async function pulse(s: Session<{ readonly issue: string; readonly ms: number }>): Promise<string> {
  const from = Date.now();
  await s.sleep(s.input.ms);
  await ran.hook(s.input.issue, from, Date.now());
  return s.input.issue;
}

/** A root that spawns `children` registered pulses of `ms` each; returns how many committed, and why others failed (each reason once). */
export async function pulses(
  s: Session<{ readonly children: number; readonly ms: number }>,
): Promise<{ committed: number; failures: string[] }> {
  const outcomes = await Promise.all(
    Array.from({ length: s.input.children }, (_, i) =>
      s.spawn(pulse, { input: { issue: `pulse ${i}`, ms: s.input.ms }, name: `pulse ${i}` }),
    ),
  );
  const failures = new Set(outcomes.flatMap((o) => (o.status === 'failed' ? [`${o.failure.kind}: ${o.failure.message}`] : [])));
  return { committed: outcomes.filter((o) => o.status === 'committed').length, failures: [...failures] };
}

/** A child body that writes, then sleeps `ms` (logging `stopped <issue>` when its session ends first). */
export async function sleeper(s: Session<{ readonly issue: string; readonly ms: number }>): Promise<string> {
  await started.hook(s.input.issue);
  await s.tools.add_skill({ section: 'harness', issue: s.input.issue, insight: 'written before the sleep' });
  try {
    await s.sleep(s.input.ms);
  } catch (err) {
    await started.hook(`stopped ${s.input.issue}`);
    throw err;
  }
  return s.input.issue;
}

/** A root that writes, then spawns `children` registered sleepers of `ms` each. */
export async function sleepers(s: Session<{ readonly children: number; readonly ms: number }>): Promise<string[]> {
  await s.tools.add_skill({ section: 'harness', issue: 'root of sleepers', insight: 'must not land when cancelled' });
  const outcomes = await Promise.all(
    Array.from({ length: s.input.children }, (_, i) =>
      s.spawn(sleeper, { input: { issue: `sleeper ${i}`, ms: s.input.ms }, name: `sleeper ${i}` }),
    ),
  );
  return outcomes.map((o) => o.status);
}

/** A child body that fails with a cause chain: `refused by the service` caused by `connection reset`. */
export async function failsDeep(): Promise<never> {
  throw new Error('refused by the service', { cause: Object.assign(new Error('connection reset'), { code: 'ECONNRESET' }) });
}

/** A root that spawns {@link failsDeep} as a child unit and returns the failure it got. */
export async function spawnsFailing(s: Session): Promise<unknown> {
  const o = await s.spawn(failsDeep, { name: 'fails' });
  return o.status === 'failed' ? { kind: o.failure.kind, message: o.failure.message, error: o.failure.error ?? null } : o.status;
}

/** A child body that rewrites one skill's insight (two of them on one skill conflict). */
export async function updater(
  s: Session<{ readonly skillId: string; readonly insight: string; readonly delayMs?: number }>,
): Promise<string> {
  if (s.input.delayMs) await s.sleep(s.input.delayMs);
  const updated = await s.tools.update_skill({ skill_id: s.input.skillId, insight: s.input.insight });
  if ('error' in updated) throw new Error(updated.error);
  return updated.skill_id;
}

/** A root whose two registered children rewrite the same skill: the first merged wins, the other conflicts. */
export async function rivals(s: Session): Promise<string[]> {
  const own = await s.tools.add_skill({ section: 'harness', issue: 'contested', insight: 'v1' });
  if ('error' in own) throw new Error(own.error);
  const outcomes = await Promise.all([
    s.spawn(updater, { input: { skillId: own.skill_id, insight: 'v2 first', delayMs: 0 }, name: 'first' }),
    s.spawn(updater, { input: { skillId: own.skill_id, insight: 'v2 second', delayMs: 600 }, name: 'second' }),
  ]);
  return outcomes.map((o) => (o.status === 'committed' ? 'committed' : o.failure.kind));
}

/**
 * A registered child that spawns registered grandchildren: one itself, one from an in-process
 * child of its own; both tag the skill it wrote, which they see in their views.
 */
export async function nested(s: Session): Promise<string[]> {
  const own = await s.tools.add_skill({ section: 'harness', issue: 'nested parent', insight: 'written by a child unit' });
  if ('error' in own) throw new Error(own.error);
  const outcomes = await Promise.all([
    s.spawn(writer, { input: { issue: 'grandchild', tag: own.skill_id }, name: 'grandchild' }),
    s.spawn(
      async (c) => {
        const o = await c.spawn(writer, { input: { issue: 'great-grandchild', tag: own.skill_id }, name: 'great-grandchild' });
        return o.status;
      },
      { name: 'local' },
    ),
  ]);
  const [grandchild, local] = outcomes;
  return [grandchild?.status ?? 'none', local?.status === 'committed' ? String(local.output) : 'local failed'];
}

/** A root that spawns {@link nested} as a child unit. */
export async function tree(s: Session): Promise<unknown> {
  const o = await s.spawn(nested, { name: 'nested' });
  return o.status === 'committed' ? o.output : o.failure.message;
}

/** A root that spawns {@link tree} as a child unit: one level deeper. */
export async function deeper(s: Session): Promise<unknown> {
  const o = await s.spawn(tree, { name: 'tree' });
  return o.status === 'committed' ? o.output : o.failure.message;
}
