/**
 * Back-pressure with real processes: three durable workers share one system database; a run on
 * one of them fans out 1,000 child units that do almost nothing. The queue allows 3 at once on
 * each worker and 6 over all of them: every child completes, and by the wall clock each
 * child's body logged, no worker ever ran more than 3 at once, nor all of them more than 6;
 * and with pools of 4, the workers never held more connections to the system database than
 * their pools allow.
 */
import { expect, it } from 'vitest';
import { useFleet } from './utils/fleet.ts';
import { sql } from './utils/pg.ts';

const WORKER = 3;
const GLOBAL = 6;
const CHILDREN = 1_000;

const POOL = 4;
const fleet = useFleet({ workerConcurrency: WORKER, globalConcurrency: GLOBAL, systemDatabasePoolSize: POOL });

/** The most connections to the fleet's system database seen while `during` runs, sampled every 100 ms. */
async function mostConnections<T>(during: Promise<T>): Promise<{ result: T; most: number }> {
  const database = new URL(fleet.systemDatabaseUrl).pathname.slice(1);
  let most = 0;
  let done = false;
  const sampling = (async () => {
    while (!done) {
      // a server out of connections refuses this one too: that sample is skipped
      const rows = await sql<{ n: number }>('SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = $1', [database]).catch(
        () => [],
      );
      const [row] = rows;
      most = Math.max(most, row?.n ?? 0);
      await new Promise((r) => setTimeout(r, 100));
    }
  })();
  const result = await during.finally(() => (done = true));
  await sampling;
  return { result, most };
}

interface Span {
  readonly executor: string;
  readonly from: number;
  readonly to: number;
}

/** The most spans running at one instant (one that ends as another starts does not overlap it). */
function maxOverlap(spans: readonly Span[]): number {
  const edges = spans.flatMap((s) => [
    { at: s.from, step: 1 },
    { at: s.to, step: -1 },
  ]);
  edges.sort((a, b) => a.at - b.at || a.step - b.step);
  let running = 0;
  let most = 0;
  for (const e of edges) {
    running += e.step;
    most = Math.max(most, running);
  }
  return most;
}

it(`durable run - 1,000 children over 3 workers: all complete, never more than ${WORKER} at once on a worker nor ${GLOBAL} over all`, async () => {
  // the first worker makes the system database; the run starts once the others serve the queue
  const first = fleet.start(fleet.options('worker-1'));
  await first.line('ready', 40_000);
  const second = fleet.start(fleet.options('worker-2'));
  await second.line('ready', 40_000);
  const third = fleet.start(fleet.options('worker-3', { run: { id: 'pressure-1', body: 'pulses', children: CHILDREN, delayMs: 50 } }));
  const { result, most: connections } = await mostConnections(third.line('outcome', 100_000));
  const { outcome } = result as { outcome: { status: string; output?: unknown } };
  expect(outcome).toMatchObject({ status: 'committed', output: { committed: CHILDREN, failures: [] } });
  // each worker: two pools of POOL, its journal's 4 and DBOS's listener
  console.log(`connections to the system database: at most ${connections}`);
  expect(connections, 'connections to the system database').toBeLessThanOrEqual(3 * (2 * POOL + 4 + 1));

  const spans = (
    await sql<{ executor: string; from_ms: string; to_ms: string }>(`SELECT executor, from_ms, to_ms FROM ${fleet.logSchema}.spans`)
  ).map((r) => ({ executor: r.executor, from: Number(r.from_ms), to: Number(r.to_ms) }));
  expect(spans).toHaveLength(CHILDREN);
  const workers = [...new Set(spans.map((s) => s.executor))].sort();
  expect(workers, 'every worker ran children').toEqual(['worker-1', 'worker-2', 'worker-3']);
  const most = Object.fromEntries(workers.map((w) => [w, maxOverlap(spans.filter((s) => s.executor === w))]));
  console.log(`at most at once: ${JSON.stringify(most)}, over all ${maxOverlap(spans)}`);
  for (const [worker, n] of Object.entries(most)) expect(n, `${worker} at once`).toBeLessThanOrEqual(WORKER);
  expect(maxOverlap(spans), 'all workers at once').toBeLessThanOrEqual(GLOBAL);
}, 120_000);
