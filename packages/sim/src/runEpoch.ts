import { createRuntime } from '@cohort/runtime';
import type { ConflictPolicy, Runtime, RuntimeOptions, SimulatedClock } from '@cohort/runtime';
import { RUNTIME_MUTATIONS, createMutantRuntime } from '@cohort/runtime/testing';
import type { SimFs, Store } from '@cohort/store';
import type { EpochRecord } from './EpochRecord.ts';
import type { EpochPlan, PolicyName, RootPlan, Scenario, ScenarioLimits } from './Scenario.ts';
import { scriptBody, spawnOptions } from './scriptBody.ts';
import type { ScriptEnv } from './scriptBody.ts';
import type { ResolvedSimOptions } from './SimOptions.ts';
import type { EpochStore } from './stores/openEpochStore.ts';
import type { SimAceWriter } from './external/SimAceWriter.ts';
import { readAllHistory } from './external/readAllHistory.ts';

/** Virtual-time steps one settle may take before the run counts as runaway. */
export const MAX_STEPS = 200_000;

/** What one epoch runs on. */
export interface EpochContext {
  readonly scenario: Scenario;
  readonly options: ResolvedSimOptions;
  readonly clock: SimulatedClock;
  readonly sim: SimFs | null;
  readonly store: EpochStore;
  readonly record: EpochRecord;
  readonly seedIds: readonly string[];
  /** Another program saving the document during the epoch, if the scenario has one. */
  readonly external?: SimAceWriter | null;
}

/**
 * Runs one epoch: a runtime on the epoch's store, its root sessions started at their times,
 * virtual time driven until every one settled, then the planned process crash (if it did not
 * hit on its own already) and the runtime's close. Everything observed goes to the record;
 * nothing here throws.
 *
 * @example
 * await runEpoch(plan, { scenario, options, clock, sim, store, record, seedIds });
 */
export async function runEpoch(plan: EpochPlan, ctx: EpochContext): Promise<void> {
  const { clock, record } = ctx;
  const rt = simRuntime(ctx, { store: ctx.store.recording, runtimeId: `e${record.epoch}` });
  const subscription = rt.events$.subscribe((event) => record.observe(event));
  if (plan.crash && ctx.sim) armCrash(ctx.sim, plan.crash, record);
  const env: ScriptEnv = { record, clock, seedIds: ctx.seedIds };
  const roots = Promise.all([...plan.roots.map((root) => startRoot(rt, root, env)), ctx.external?.during(record.epoch)]);
  await settle(clock, roots, record, 'the sessions did not all settle');
  if (!record.crashed)
    await settle(
      clock,
      readAllHistory(ctx.store.recording).then((h) => void (record.history = h)),
      record,
      'the history could not be read',
    );
  const live = rt.liveSessions;
  if (plan.crash && ctx.sim && !record.crashed) {
    record.crashed = true;
    record.note({ type: 'sim.crash', mode: plan.crash.mode, before: 'the end of the epoch' });
    ctx.sim.crash({ mode: plan.crash.mode });
  }
  await settle(clock, rt.close(), record, 'the runtime did not close');
  subscription.unsubscribe();
  record.final = { book: rt.book, audit: [...rt.audit], live };
  record.appends = ctx.store.recording.appends;
}

/**
 * A runtime as the scenario says (policy, limits, budget; the broken variant of a mutated run)
 * on `store`, with the whole audit kept (to hold against what the store persisted) and session
 * ids from the seed (`runtimeId`), so that a run replays byte for byte.
 */
export function simRuntime(
  ctx: Pick<EpochContext, 'scenario' | 'options' | 'clock'>,
  how: { store: Store; runtimeId: string; limits?: ScenarioLimits },
): Runtime {
  const { scenario, clock } = ctx;
  const mutation = RUNTIME_MUTATIONS.find((m) => m === ctx.options.mutation);
  const options: RuntimeOptions = {
    store: how.store,
    clock,
    runtimeId: how.runtimeId,
    auditWindow: Number.POSITIVE_INFINITY,
    limits: how.limits ?? scenario.limits,
    conflicts: conflictPolicy(scenario.policy),
    ...(scenario.budgetTokens !== null ? { budget: { tokens: scenario.budgetTokens } } : {}),
  };
  // a broken variant comes through the runtime's testing entry point, never through its options
  return mutation ? createMutantRuntime(mutation, options) : createRuntime(options);
}

/** Drives virtual time until `work` settles; a hang or a rejection is recorded, not thrown. */
export async function settle(clock: SimulatedClock, work: Promise<unknown>, record: EpochRecord, what: string): Promise<void> {
  try {
    await clock.settle(work, MAX_STEPS);
  } catch (thrown) {
    record.hangs.push(`${what}: ${thrown instanceof Error ? thrown.message : String(thrown)}`);
  }
}

/** Starts a root session at its time; resolves once its outcome was recorded (or its rejection). */
export function startRoot(rt: Runtime, root: RootPlan, env: ScriptEnv): Promise<void> {
  return new Promise((resolve) => {
    env.clock.setTimeout(() => {
      const deliver = env.record.call(null);
      rt.run(scriptBody(root.session, env), spawnOptions(root.session)).then(
        (outcome) => {
          deliver(outcome);
          resolve();
        },
        (thrown: unknown) => {
          env.record.escaped.push(`rt.run rejected (it must never reject): ${thrown instanceof Error ? thrown.message : String(thrown)}`);
          resolve();
        },
      );
    }, root.startAt);
  });
}

/** Crashes the machine before the n-th mutating file operation from now. */
function armCrash(sim: SimFs, crash: NonNullable<EpochPlan['crash']>, record: EpochRecord): void {
  let count = 0;
  sim.crashOn(
    (op) => {
      count += 1;
      if (count < crash.afterOps) return false;
      record.crashed = true;
      record.note({ type: 'sim.crash', mode: crash.mode, before: `${op.kind} ${op.path}` });
      return true;
    },
    { mode: crash.mode },
  );
}

/** The runtime policy of a scenario's policy name; `resolver` keeps, drops or rejects by kind. */
export function conflictPolicy(name: PolicyName): ConflictPolicy {
  if (name !== 'resolver') return name;
  return (conflict, { op }) => {
    if (conflict.type === 'TAG' || op.type === 'ADD') return 'keep';
    if (conflict.reason === 'removed') return 'drop';
    return op.type === 'REMOVE' ? 'reject' : 'keep';
  };
}
