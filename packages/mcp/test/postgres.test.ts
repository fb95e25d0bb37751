import { randomUUID } from 'node:crypto';
import { createRuntime } from '@cohort/runtime';
import { describeOpenError } from '@cohort/store';
import { PostgresStore } from '@cohort/store-postgres';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { BOOK_URI, SkillbookMcp } from '../src/index.ts';
import { inMemoryClient, value } from './utils/clients.ts';

const url = process.env['COHORT_PG_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

async function open(schema: string): Promise<PostgresStore> {
  const opened = await PostgresStore.open({ url, schema });
  if (!opened.ok) throw new Error(describeOpenError(opened.error));
  return opened.store;
}

describe('PostgreSQL', () => {
  it('replicas - another replica commits to the same database: the subscriber is told, and reads its skill', async () => {
    const schema = `mcp_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
    cleanup.push(async () => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await client.end();
    });
    const [ours, theirs] = [await open(schema), await open(schema)];
    const served = createRuntime({ store: ours });
    const replica = createRuntime({ store: theirs });
    await Promise.all([served.ready, replica.ready]);
    const mcp = new SkillbookMcp({ runtime: served, store: ours });
    cleanup.push(
      () => replica.close(),
      () => served.close(),
      () => mcp.close(),
    );

    const client = await inMemoryClient(mcp, 'watcher');
    const updated: string[] = [];
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void updated.push(n.params.uri));
    await client.subscribeResource({ uri: BOOK_URI });
    const outcome = await replica.run(async (s) =>
      s.tools.add_skill({ section: 'harness', issue: 'learned by the other replica', insight: 'x' }),
    );
    expect(outcome.status).toBe('committed');
    await expect.poll(() => updated, { timeout: 10_000 }).toContain(BOOK_URI);
    expect((await value(client, 'skillbook.get')).prompt).toContain('learned by the other replica');
  });
});
