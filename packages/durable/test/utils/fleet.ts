import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { PostgresStore } from '@cohort/store-postgres';
import { openDurable } from '../../src/index.ts';
import type { Durable, DurableOptions } from '../../src/index.ts';
import { started, testBodies } from './bodies.ts';
import { budgetBodies } from './budgetBodies.ts';
import { databaseUrl, dropTestData, freshName, PG_URL, sql } from './pg.ts';
import type { WorkerOptions } from './worker.ts';
import { bundleWorker, startWorker } from './workers.ts';
import type { WorkerProcess } from './workers.ts';

/** What a durable worker in the test's own process is opened with, beyond the fleet's databases. */
export type HereOptions = Omit<DurableOptions, 'systemDatabaseUrl' | 'store' | 'bodies'> & Partial<Pick<DurableOptions, 'bodies'>>;

/**
 * The durable workers of one test file, as processes and in the test's own process: a system
 * database and a store schema of their own, the worker bundle, and a log of each writer's
 * start (`<logSchema>.starts`, which the bodies' `started` hook writes). Set up and torn down
 * with the file's `beforeAll` and `afterAll`: every process killed, every database dropped.
 */
export interface Fleet {
  readonly schema: string;
  readonly logSchema: string;
  readonly systemDatabaseUrl: string;
  /** A worker process's options on the fleet's databases, with `defaults` and `more`. */
  options(executorId: string, more?: Partial<WorkerOptions>): WorkerOptions;
  /** Starts a worker process. */
  start(options: WorkerOptions): WorkerProcess;
  /** Opens a durable worker in the test's process (its writers' starts logged as `executorId`). */
  openHere(options: HereOptions): Promise<{ durable: Durable; store: PostgresStore }>;
  /** Every writer's start logged so far, in no order. */
  starts(): Promise<{ issue: string; executor: string }[]>;
}

/** Declares the fleet of a test file (call it at the file's top level). */
export function useFleet(defaults: Partial<WorkerOptions> = {}): Fleet {
  const database = freshName('cohort_dbos_test');
  const schema = freshName('durable');
  const logSchema = `${schema}_log`;
  const systemDatabaseUrl = databaseUrl(database);
  const workers: WorkerProcess[] = [];
  const here: { durable: Durable; store: PostgresStore }[] = [];
  const log = new pg.Pool({ connectionString: PG_URL, max: 2 });
  log.on('error', () => undefined);
  let bundle: Awaited<ReturnType<typeof bundleWorker>> | undefined;

  beforeAll(async () => {
    bundle = await bundleWorker();
    await sql(`CREATE SCHEMA ${logSchema}`);
    await sql(`CREATE TABLE ${logSchema}.starts (issue text NOT NULL, executor text NOT NULL, at timestamptz NOT NULL DEFAULT now())`);
    // when each pulse's body ran, by the wall clock of its process (the concurrency test's overlaps)
    await sql(
      `CREATE TABLE ${logSchema}.spans (issue text NOT NULL, executor text NOT NULL, from_ms bigint NOT NULL, to_ms bigint NOT NULL)`,
    );
  });

  afterAll(async () => {
    for (const w of workers) if (w.proc.exitCode === null) w.proc.kill('SIGKILL');
    for (const { durable, store } of here) {
      await durable.close();
      await store.close();
    }
    await log.end();
    await bundle?.dispose();
    await sql(`DROP SCHEMA IF EXISTS ${logSchema} CASCADE`);
    await dropTestData(database, schema);
  });

  return {
    schema,
    logSchema,
    systemDatabaseUrl,
    options: (executorId, more = {}) => ({
      storeUrl: PG_URL,
      storeSchema: schema,
      systemDatabaseUrl,
      executorId,
      logSchema,
      ...defaults,
      ...more,
    }),
    start(options) {
      if (!bundle) throw new Error('start a worker inside a test: the bundle is made in beforeAll');
      const w = startWorker(bundle.file, options);
      workers.push(w);
      return w;
    },
    async openHere(options) {
      const opened = await PostgresStore.open({ url: PG_URL, schema });
      if (!opened.ok) throw new Error('the store did not open');
      const executor = options.executorId ?? 'here';
      started.hook = async (issue) => {
        await log.query(`INSERT INTO ${logSchema}.starts (issue, executor) VALUES ($1, $2)`, [issue, executor]);
      };
      const durable = await openDurable({
        systemDatabaseUrl,
        store: opened.store,
        bodies: { ...testBodies, ...budgetBodies },
        pollingIntervalMs: 50,
        systemDatabasePoolSize: 4,
        ...options,
      });
      here.push({ durable, store: opened.store });
      return { durable, store: opened.store };
    },
    starts: () => sql<{ issue: string; executor: string }>(`SELECT issue, executor FROM ${logSchema}.starts`),
  };
}
