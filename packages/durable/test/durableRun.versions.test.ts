/**
 * Upgrades: a run started by workers of application version v1 is resumed only by workers of
 * v1. Its worker is SIGKILLed; a worker of v2 neither takes it over nor runs its children, and
 * asking it for the run is a clear error; a worker of v1 started later takes it over, and the
 * run completes with the book of a run without the crash, which v2 then reads.
 */
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { SessionOutcome } from '@cohort/runtime';
import { PostgresStore } from '@cohort/store-postgres';
import { isDurableError, openDurable } from '../src/index.ts';
import type { Durable } from '../src/index.ts';
import { started, testBodies } from './utils/bodies.ts';
import { expectCrashFreeBook, unitsOf } from './utils/crashFree.ts';
import type { FanOutOutput } from './utils/crashFree.ts';
import { databaseUrl, dropTestData, freshName, PG_URL, sql } from './utils/pg.ts';
import type { WorkerOptions } from './utils/worker.ts';
import { bundleWorker, startWorker } from './utils/workers.ts';
import type { WorkerProcess } from './utils/workers.ts';

const database = freshName('cohort_dbos_test');
const schema = freshName('durable');
const logSchema = `${schema}_log`;
const systemDatabaseUrl = databaseUrl(database);
const RUN = { id: 'versions-1', children: 6, delayMs: 500 };
const TIMING = { heartbeatMs: 200, takeoverAfterMs: 1_500 };
const workers: WorkerProcess[] = [];
let bundle: Awaited<ReturnType<typeof bundleWorker>>;
let durable: Durable | undefined;
let store: PostgresStore | undefined;
const log = new pg.Pool({ connectionString: PG_URL, max: 2 });

const v1 = (executorId: string): WorkerOptions => ({
  storeUrl: PG_URL,
  storeSchema: schema,
  systemDatabaseUrl,
  executorId,
  logSchema,
  applicationVersion: 'v1',
  ...TIMING,
});

function start(options: WorkerOptions): WorkerProcess {
  const w = startWorker(bundle.file, options);
  workers.push(w);
  return w;
}

beforeAll(async () => {
  bundle = await bundleWorker();
  await sql(`CREATE SCHEMA ${logSchema}`);
  await sql(`CREATE TABLE ${logSchema}.starts (issue text NOT NULL, executor text NOT NULL, at timestamptz NOT NULL DEFAULT now())`);
  started.hook = async (issue) => {
    await log.query(`INSERT INTO ${logSchema}.starts (issue, executor) VALUES ($1, $2)`, [issue, 'v2-worker']);
  };
});

afterAll(async () => {
  for (const w of workers) if (w.proc.exitCode === null) w.proc.kill('SIGKILL');
  await durable?.close();
  await store?.close();
  await log.end();
  await bundle?.dispose();
  await sql(`DROP SCHEMA IF EXISTS ${logSchema} CASCADE`);
  await dropTestData(database, schema);
});

it('durable run - a run of version v1 is resumed by v1 workers only; a v2 worker asking for it gets DURABLE_OTHER_VERSION', async () => {
  const first = start({ ...v1('worker-1'), run: RUN });
  await first.line('ready', 40_000);
  for (const end = Date.now() + 30_000; Date.now() < end; await new Promise((r) => setTimeout(r, 25))) {
    const done = (await unitsOf(RUN.id, systemDatabaseUrl)).filter((u) => u.id !== RUN.id && u.status === 'SUCCESS').length;
    if (done >= 2 && done < RUN.children) break;
  }
  first.proc.kill('SIGKILL');
  await new Promise((r) => first.proc.once('exit', r));

  // a worker of v2 joins: it does not take over the dead v1 worker, nor run its queued children
  const opened = await PostgresStore.open({ url: PG_URL, schema });
  if (!opened.ok) throw new Error('the store did not open');
  store = opened.store;
  durable = await openDurable({
    systemDatabaseUrl,
    store,
    bodies: testBodies,
    executorId: 'v2-worker',
    applicationVersion: 'v2',
    pollingIntervalMs: 50,
    ...TIMING,
  });
  await new Promise((r) => setTimeout(r, 2 * TIMING.takeoverAfterMs + 4 * TIMING.heartbeatMs));
  const root = (await unitsOf(RUN.id, systemDatabaseUrl)).find((u) => u.id === RUN.id);
  expect(root, 'the run waits for a worker of its version').toMatchObject({ status: 'PENDING', executor: 'worker-1' });
  const [dead] = await sql<{ adopted_by: string | null }>(
    'SELECT adopted_by FROM cohort_durable.workers WHERE executor = $1',
    ['worker-1'],
    systemDatabaseUrl,
  );
  expect(dead?.adopted_by).toBeNull();
  const refused: unknown = await durable
    .run('fanOut', { children: RUN.children, delayMs: RUN.delayMs }, { id: RUN.id })
    .catch((e: unknown) => e);
  expect(isDurableError(refused) && refused.code).toBe('DURABLE_OTHER_VERSION');
  expect(String(refused)).toContain('only workers of version v1 resume it (this worker is version v2)');

  // a worker of v1 takes it over; the run completes; v2 reads its recorded outcome
  start(v1('worker-5'));
  let status: { status: string; executor: string } | undefined;
  for (const end = Date.now() + 60_000; Date.now() < end; await new Promise((r) => setTimeout(r, 100))) {
    status = (await unitsOf(RUN.id, systemDatabaseUrl)).find((u) => u.id === RUN.id);
    if (status?.status === 'SUCCESS') break;
  }
  expect(status).toMatchObject({ status: 'SUCCESS', executor: 'worker-5' });
  const ranOnV2 = await sql<{ n: number }>(`SELECT count(*)::int AS n FROM ${logSchema}.starts WHERE executor = 'v2-worker'`);
  expect(ranOnV2[0]?.n, 'no child of the v1 run ran on the v2 worker').toBe(0);
  const outcome = (await durable.run(
    'fanOut',
    { children: RUN.children, delayMs: RUN.delayMs },
    { id: RUN.id },
  )) as SessionOutcome<FanOutOutput>;
  started.hook = () => undefined; // the run without a crash, below, runs the writers in this process
  await expectCrashFreeBook(outcome, schema, RUN.children);
}, 150_000);
