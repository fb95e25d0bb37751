import { afterAll, beforeAll } from 'vitest';
import { PostgresStore } from '@cohort/store-postgres';
import { openDurable } from '../../src/index.ts';
import type { Durable } from '../../src/index.ts';
import { testBodies } from './bodies.ts';
import { databaseUrl, dropTestData, freshName, PG_URL } from './pg.ts';

/** One durable worker in the test's process, on a system database and a store schema of its own. */
export interface OneWorker {
  readonly database: string;
  readonly schema: string;
  readonly systemDatabaseUrl: string;
  /** The store's writer id (its connections' `application_name` is `cohort <writerId>`). */
  readonly writerId: string;
  /** The worker, once the file's `beforeAll` opened it. */
  durable(): Durable;
}

/**
 * Declares the test file's worker (call it at the file's top level): opened in `beforeAll`
 * with the test bodies, closed and its databases dropped in `afterAll`.
 */
export function useOneWorker(): OneWorker {
  const database = freshName('cohort_dbos_test');
  const schema = freshName('durable');
  const writerId = freshName('writer');
  let durable: Durable | undefined;
  let store: PostgresStore | undefined;

  beforeAll(async () => {
    const opened = await PostgresStore.open({ url: PG_URL, schema, writerId });
    if (!opened.ok) throw new Error('the store did not open');
    store = opened.store;
    durable = await openDurable({
      systemDatabaseUrl: databaseUrl(database),
      store,
      bodies: testBodies,
      executorId: 'worker-1',
      pollingIntervalMs: 50,
      heartbeatMs: 100,
    });
  }, 60_000);

  afterAll(async () => {
    await durable?.close();
    await store?.close();
    await dropTestData(database, schema);
  });

  return {
    database,
    schema,
    systemDatabaseUrl: databaseUrl(database),
    writerId,
    durable: () => {
      if (!durable) throw new Error('the worker opens in beforeAll: use it inside a test');
      return durable;
    },
  };
}
