import { afterAll, beforeAll, expect, it } from 'vitest';
import { PostgresStore } from '@cohort/store-postgres';
import { openDurable } from '../src/index.ts';
import type { Durable } from '../src/index.ts';
import { testBodies } from './utils/bodies.ts';
import { PG_URL, databaseUrl, dropTestData, freshName } from './utils/pg.ts';

const database = freshName('cohort_dbos_test');
const schema = freshName('durable');
let store: PostgresStore;
let durable: Durable;

beforeAll(async () => {
  const opened = await PostgresStore.open({ url: PG_URL, schema });
  if (!opened.ok) throw new Error('the store did not open');
  store = opened.store;
  // one child at a time per depth: a unit waiting for its children must not keep them from running
  const systemDatabaseUrl = databaseUrl(database);
  durable = await openDurable({ systemDatabaseUrl, store, bodies: testBodies, workerConcurrency: 1, pollingIntervalMs: 50 });
});

afterAll(async () => {
  await durable?.close();
  await store?.close();
  await dropTestData(database, schema);
});

it('queues - a child unit waiting for child units of its own leaves them room, one place per depth', async () => {
  const outcome = await durable.run('tree', {}, { id: 'tree-1' });
  // nested (depth 1) waits for its grandchild (depth 2); the great-grandchild is past maxDepth
  expect(outcome).toMatchObject({ status: 'committed', output: ['committed', 'failed'] });
}, 30_000);
