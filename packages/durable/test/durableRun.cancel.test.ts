/**
 * Cancellation across workers: this process and a worker process serve the queue; a root's
 * sleeping children run on both. `durable.cancel` of the root stops every one of them where it
 * runs, the run resolves as `cancelled`, and nothing of the tree reaches the store.
 */
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { PostgresStore } from '@cohort/store-postgres';
import { isDurableError, openDurable } from '../src/index.ts';
import type { Durable } from '../src/index.ts';
import { started, testBodies } from './utils/bodies.ts';
import { unitsOf } from './utils/crashFree.ts';
import { databaseUrl, dropTestData, freshName, PG_URL, sql } from './utils/pg.ts';
import { bundleWorker, startWorker } from './utils/workers.ts';
import type { WorkerProcess } from './utils/workers.ts';

const database = freshName('cohort_dbos_test');
const schema = freshName('durable');
const logSchema = `${schema}_log`;
const systemDatabaseUrl = databaseUrl(database);
let bundle: Awaited<ReturnType<typeof bundleWorker>>;
let worker: WorkerProcess | undefined;
let durable: Durable | undefined;
let store: PostgresStore | undefined;
const log = new pg.Pool({ connectionString: PG_URL, max: 2 });

beforeAll(async () => {
  bundle = await bundleWorker();
  await sql(`CREATE SCHEMA ${logSchema}`);
  await sql(`CREATE TABLE ${logSchema}.starts (issue text NOT NULL, executor text NOT NULL, at timestamptz NOT NULL DEFAULT now())`);
  started.hook = async (issue) => {
    await log.query(`INSERT INTO ${logSchema}.starts (issue, executor) VALUES ($1, $2)`, [issue, 'main']);
  };
});

afterAll(async () => {
  if (worker?.proc.exitCode === null) worker.proc.kill('SIGKILL');
  await durable?.close();
  await store?.close();
  await log.end();
  await bundle?.dispose();
  await sql(`DROP SCHEMA IF EXISTS ${logSchema} CASCADE`);
  await dropTestData(database, schema);
});

async function logged(): Promise<{ issue: string; executor: string }[]> {
  return sql<{ issue: string; executor: string }>(`SELECT issue, executor FROM ${logSchema}.starts`);
}

it('durable.cancel - a root cancelled mid-run: its children stop on every worker, the run is cancelled, nothing lands', async () => {
  const opened = await PostgresStore.open({ url: PG_URL, schema });
  if (!opened.ok) throw new Error('the store did not open');
  store = opened.store;
  const options = { systemDatabaseUrl, store, bodies: testBodies, pollingIntervalMs: 50, heartbeatMs: 100, takeoverAfterMs: 0 };
  durable = await openDurable({ ...options, executorId: 'main', workerConcurrency: 2 });
  worker = startWorker(bundle.file, {
    storeUrl: PG_URL,
    storeSchema: schema,
    systemDatabaseUrl,
    executorId: 'worker-2',
    logSchema,
    heartbeatMs: 100,
  });
  await worker.line('ready', 40_000);

  const CHILDREN = 4;
  const running = durable.run('sleepers', { children: CHILDREN, ms: 120_000 }, { id: 'cancel-1' });
  let starts: { issue: string; executor: string }[] = [];
  for (const end = Date.now() + 30_000; Date.now() < end; await new Promise((r) => setTimeout(r, 50))) {
    starts = await logged();
    if (starts.length === CHILDREN) break;
  }
  expect(starts.length, 'every sleeper started').toBe(CHILDREN);
  expect(new Set(starts.map((s) => s.executor)), 'sleepers on both workers').toEqual(new Set(['main', 'worker-2']));

  await durable.cancel('cancel-1');
  const outcome = await running;
  expect(outcome).toMatchObject({ status: 'failed', failure: { kind: 'cancelled', category: 'interruption' } });

  // every sleeper's session ended where it ran
  let stopped: string[] = [];
  for (const end = Date.now() + 30_000; Date.now() < end; await new Promise((r) => setTimeout(r, 50))) {
    stopped = (await logged()).filter((s) => s.issue.startsWith('stopped ')).map((s) => `${s.issue} on ${s.executor}`);
    if (stopped.length === CHILDREN) break;
  }
  expect(stopped.sort()).toEqual(starts.map((s) => `stopped ${s.issue} on ${s.executor}`).sort());
  const units = await unitsOf('cancel-1', systemDatabaseUrl);
  expect(units.map((u) => u.status)).toEqual(Array.from({ length: CHILDREN + 1 }, () => 'CANCELLED'));
  expect((await store.load()).revision, 'nothing of the tree reached the store').toBe(0);

  // the same id again: the cancelled outcome, nothing runs
  expect(await durable.run('sleepers', { children: CHILDREN, ms: 1 }, { id: 'cancel-1' })).toMatchObject({
    failure: { kind: 'cancelled' },
  });
  const unknown: unknown = await durable.cancel('no-such-run').catch((e: unknown) => e);
  expect(isDurableError(unknown) && unknown.code).toBe('DURABLE_UNKNOWN_RUN');
}, 120_000);
