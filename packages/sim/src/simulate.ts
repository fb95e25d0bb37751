import { SimulatedClock } from '@cohort/runtime';
import { buildReferences } from './buildReferences.ts';
import { checkInvariants } from './invariants/checkInvariants.ts';
import { generateScenario } from './generateScenario.ts';
import { runScenario } from './runScenario.ts';
import type { RunObservations } from './runScenario.ts';
import { resolveSimOptions } from './SimOptions.ts';
import type { SimOptions } from './SimOptions.ts';
import type { SimReport, SimStats } from './SimReport.ts';
import { Timeline } from './Timeline.ts';

/** Where every run's virtual time starts. */
export const SIM_EPOCH_START = Date.UTC(2026, 0, 1);

/**
 * Runs one deterministic simulation: generates the scenario from the seed, runs it on
 * virtual time (and a simulated disk), builds the reference model and checks the twelve
 * invariants. Same seed, same options, same code → `JSON.stringify(report)` is byte-identical.
 * Never throws for a fault of the runtime: a violation is a failed invariant in the report.
 * Run simulations one at a time: unhandled rejections are caught process-wide while one runs.
 *
 * @example
 * const report = await simulate({ seed: 42 });
 * report.ok;                                         // true when every invariant held
 * report.invariants.filter((i) => !i.ok).map((i) => i.name);
 */
export async function simulate(options: SimOptions): Promise<SimReport> {
  const resolved = resolveSimOptions(options);
  const scenario = generateScenario(resolved);
  const timeline = new Timeline(new SimulatedClock(SIM_EPOCH_START));
  const unhandled: string[] = [];
  const onRejection = (reason: unknown): void => {
    const message = `unhandled rejection: ${describe(reason)}`;
    unhandled.push(message);
    timeline.push({ type: 'sim.unhandled', kind: 'rejection', message: describe(reason) });
  };
  const onException = (error: unknown): void => {
    unhandled.push(`uncaught exception: ${describe(error)}`);
    timeline.push({ type: 'sim.unhandled', kind: 'exception', message: describe(error) });
  };
  process.on('unhandledRejection', onRejection);
  process.on('uncaughtException', onException);
  let observations: RunObservations;
  try {
    observations = await runScenario(scenario, resolved, timeline);
    // rejections are reported a turn after they happen
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
  } finally {
    process.off('unhandledRejection', onRejection);
    process.off('uncaughtException', onException);
  }
  const references = buildReferences(observations);
  const invariants = checkInvariants({ observations, references, unhandled });
  return {
    seed: resolved.seed,
    options: resolved,
    scenario,
    timeline: timeline.entries,
    stats: statsOf(observations, timeline.elapsed),
    invariants,
    ok: invariants.every((i) => i.ok),
  };
}

function statsOf(observations: RunObservations, virtualMs: number): SimStats {
  const failures: Record<string, number> = {};
  let sessions = 0;
  let merges = 0;
  for (const record of observations.epochs) {
    for (const { event } of record.events) {
      if (event.type === 'session.spawned') sessions += 1;
      else if (event.type === 'session.merged') merges += 1;
      else if (event.type === 'session.failed') failures[event.failure.kind] = (failures[event.failure.kind] ?? 0) + 1;
    }
  }
  const appends = observations.epochs.flatMap((r) => r.appends);
  return {
    epochs: observations.epochs.length,
    sessions,
    merges,
    failures,
    crashes: observations.epochs.filter((r) => r.crashed).length,
    appends: appends.length,
    acknowledged: appends.filter((a) => a.result === 'acknowledged').length,
    virtualMs,
  };
}

function describe(value: unknown): string {
  if (value instanceof Error) return `${value.name}: ${value.message}`;
  try {
    return typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
  } catch {
    return String(value);
  }
}
