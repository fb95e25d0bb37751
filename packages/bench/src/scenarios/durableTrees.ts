/**
 * Scenario 10, durable trees: a root fans out n children that do almost nothing (one
 * `add_skill` each), run durably by `@cohort/durable` on worker processes — one, then three —
 * against the same tree in process with `@cohort/runtime` on the same kind of store; the ratio
 * is what durability costs per child. Then recovery: the time from a SIGKILL of the worker
 * running a tree's root until that root runs again, on the same worker started again (its
 * process start and DBOS's launch included) and on another worker that takes it over.
 */
import { randomUUID } from 'node:crypto';
import { createRuntime } from '@cohort/runtime';
import { describeOpenError } from '@cohort/store';
import { PostgresStore } from '@cohort/store-postgres';
import { interleave, now } from '../measure.ts';
import type { BenchOptions, BenchRow, Scenario, ScenarioReport } from '../Scenario.ts';
import { absoluteRow, byMode, medianFigure, ratioRow } from '../Scenario.ts';
import { fan } from './durableBodies.ts';
import { DurableFleet } from './durableFleet.ts';
import type { DurableWorker, FleetSettings } from './durableFleet.ts';
import { PG_URL, sql } from './pgMerges.ts';

// few connections per worker: the PostgreSQL server's max_connections is shared with everything else on it
const SETTINGS: FleetSettings = {
  workerConcurrency: 16,
  pollingIntervalMs: 50,
  systemDatabasePoolSize: 4,
  heartbeatMs: 250,
  takeoverAfterMs: 1_000,
};
const INFO = { kind: 'info', text: 'info' } as const;

/** The tree in this process: a runtime on a fresh PostgresStore schema; ms from run to outcome. */
async function inProcess(children: number): Promise<number> {
  const schema = `bench_tree_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
  const opened = await PostgresStore.open({ url: PG_URL, schema, listen: false, poolSize: 2 });
  if (!opened.ok) throw new Error(`durable trees: ${describeOpenError(opened.error)}`);
  try {
    const rt = createRuntime({ store: opened.store });
    await rt.ready;
    const t0 = now();
    const outcome = await rt.run(fan, { input: { children } });
    const ms = now() - t0;
    if (outcome.status !== 'committed' || outcome.output.committed !== children) {
      throw new Error(
        `durable trees: the in-process tree ended with ${JSON.stringify(outcome.status === 'committed' ? outcome.output : outcome.failure.message)}`,
      );
    }
    await rt.close();
    return ms;
  } finally {
    await opened.store.close();
    await sql(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  }
}

/**
 * Starts a run of `children` on `root`, SIGKILLs it once a tenth of its children are recorded,
 * calls `again` (which may start the worker again) and resolves with the ms from the kill until
 * a worker printed that a root started, once the run has finished.
 */
async function killedRoot(
  fleet: DurableFleet,
  root: DurableWorker,
  id: string,
  children: number,
  again: () => Promise<DurableWorker[]>,
): Promise<number> {
  void root.run(id, children).catch(() => undefined);
  const some = Math.max(1, Math.floor(children / 10));
  await fleet.until(`${some} children of ${id} recorded`, async () => (await fleet.recordedChildren(id)) >= some);
  const killedAt = now();
  await root.kill();
  const others = await again();
  const resumed = await Promise.race(others.map((w) => w.next('root', killedAt)));
  await fleet.until(`run ${id} finished after the kill`, async () => (await fleet.status(id)) === 'SUCCESS');
  return resumed.at - killedAt;
}

/** Scenario 10. */
export const durableTrees: Scenario = {
  id: '10',
  name: 'durable trees',
  async run(options: BenchOptions): Promise<ScenarioReport> {
    // the kills' trees stay small: the root runs again at its body's start, whatever its size
    const { children, reps, killed } = byMode(options.mode, {
      full: { children: 1_000, reps: 1, killed: 100 },
      quick: { children: 100, reps: 1, killed: 100 },
      smoke: { children: 10, reps: 1, killed: 10 },
    });
    const n = children.toLocaleString('en-US');
    options.log(`10 durable trees: ${n} children on 1 and 3 worker processes vs in process; SIGKILL → the root runs again`);
    const fleet = new DurableFleet(SETTINGS);
    let runs = 0;
    const nextId = (): string => `tree-${++runs}`;
    try {
      let first = await fleet.start('worker-1');
      // a small tree first: DBOS's first dequeues and the store's first leases are not what a child costs
      if (options.mode !== 'smoke') await first.run(nextId(), 10);
      const [one = [], local1 = []] = await interleave([() => first.run(nextId(), children), () => inProcess(children)], {
        warmup: 0,
        reps,
      });
      // alone, so that only its own start again resumes the root (no takeover)
      const restart = await killedRoot(fleet, first, nextId(), killed, async () => {
        first = await fleet.start('worker-1');
        return [first];
      });
      const helpers = [await fleet.start('worker-2'), await fleet.start('worker-3')];
      const [three = [], local3 = []] = await interleave([() => first.run(nextId(), children), () => inProcess(children)], {
        warmup: 0,
        reps,
      });
      const takeover = await killedRoot(fleet, first, nextId(), killed, async () => helpers);
      const perChild = (ms: readonly number[]) => ms.map((m) => m / children);
      const detail = { children, reps, killed, ...SETTINGS };
      const rows: BenchRow[] = [];
      for (const [id, workers, durable, local] of [
        ['10a', 1, one, local1],
        ['10b', 3, three, local3],
      ] as const) {
        const d = medianFigure(perChild(durable), 'ms', `per child, ${workers} worker${workers > 1 ? 's' : ''}`);
        const l = medianFigure(perChild(local), 'ms', 'per child, in process');
        const scenario = `durable tree of ${n} children on ${workers} worker process${workers > 1 ? 'es' : ''}, vs in process`;
        rows.push(ratioRow(id, scenario, d, l, d.value / l.value, INFO, detail));
      }
      const bound = SETTINGS.takeoverAfterMs + SETTINGS.heartbeatMs + 1_000;
      rows.push(
        absoluteRow(
          '10c',
          'SIGKILL of a tree’s worker → its root runs again, the worker started again',
          medianFigure([restart], 'ms', 'process start included'),
          INFO,
          detail,
        ),
        absoluteRow(
          '10d',
          `SIGKILL of a tree’s worker → its root runs again on another worker (takeover after ${SETTINGS.takeoverAfterMs / 1000} s)`,
          medianFigure([takeover], 'ms', 'to the takeover'),
          { kind: 'at-most', value: bound, text: `≤ ${bound.toLocaleString('en-US')} ms (takeover + heartbeat + 1 s)` },
          detail,
        ),
      );
      return { rows };
    } finally {
      await fleet.close();
    }
  },
};
