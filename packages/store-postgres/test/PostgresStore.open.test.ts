import { afterEach, describe, expect, it } from 'vitest';
import { Skillbook } from '@cohort/skillbook';
import { describeOpenError } from '@cohort/store';
import { addOp, makeCommit } from '@cohort/store/testing';
import { PostgresStore } from '@cohort/store-postgres';
import { PgStores } from './utils/openPg.ts';
import { PG_URL, sql } from './utils/pgSchema.ts';

const stores = new PgStores();
afterEach(() => stores.cleanup());

describe('PostgresStore.open', () => {
  it('open - bad options and a URL that is not postgres:// are refused as invalid_options, never thrown', async () => {
    const cases = [
      { url: 'http://example.invalid/db' },
      { url: 'not a url' },
      { url: PG_URL, schema: 'Robert"; DROP TABLE x; --' },
      { url: PG_URL, poolSize: 0 },
      {} as never,
    ];
    for (const options of cases) {
      const opened = await PostgresStore.open(options);
      expect(opened.ok ? null : opened.error.code).toBe('invalid_options');
      if (!opened.ok) expect(describeOpenError(opened.error)).toMatch(/^invalid_options: /);
    }
  });

  it('open - invalid_options names the URL it was given, query and schema included, without its password', async () => {
    const url = 'postgres://someone:secret@127.0.0.1:5432/test?schema=Bad%20Name&application_name=x';
    const opened = await PostgresStore.open({ url });
    expect(opened.ok ? null : [opened.error.code, opened.error.file]).toEqual([
      'invalid_options',
      'postgres://someone:***@127.0.0.1:5432/test?schema=Bad%20Name&application_name=x',
    ]);
    const notUrl = await PostgresStore.open({ url: 'postgres//someone:secret@host/db?schema=x' });
    expect(notUrl.ok ? null : notUrl.error.file).toBe('postgres//someone:***@host/db?schema=x');
  });

  it('open - a server that cannot be reached is an io error naming the URL without its password', async () => {
    const opened = await PostgresStore.open({ url: 'postgres://someone:secret@127.0.0.1:1/nowhere', connectTimeoutMs: 1_000 });
    expect(opened.ok ? null : opened.error.code).toBe('io');
    if (opened.ok) return;
    const text = describeOpenError(opened.error);
    expect(text).toContain('postgres://someone:***@127.0.0.1:1/nowhere?schema=cohort');
    expect(text).not.toContain('secret');
  });

  it('open - with create: false, a schema without a store is missing_document and nothing is created', async () => {
    const schema = stores.schema('nocreate');
    const opened = await PostgresStore.open({ url: PG_URL, schema, create: false });
    expect(opened.ok ? null : opened.error.code).toBe('missing_document');
    expect(await sql('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema])).toHaveLength(0);
  });

  it('migrations - four processes opening a new schema at once migrate it once, and all of them open it', async () => {
    const schema = stores.schema('race');
    const opened = await Promise.all(
      [1, 2, 3, 4].map((i) =>
        stores.open({ schema, writerId: `w${i}`, initialBook: makeCommit(Skillbook.empty(), [addOp(`seed ${i}`)]).book }),
      ),
    );
    const migrations = await sql<{ version: number }>(`SELECT version FROM "${schema}".migrations`);
    expect(migrations.map((m) => m.version)).toEqual([1]);
    const created = await sql(`SELECT 1 FROM "${schema}".commits WHERE kind = 'external'`);
    expect(created).toHaveLength(1);
    const books = opened.map((s) => s.book.toJSON());
    expect(new Set(books).size).toBe(1);
  });

  it('migrations - reopening applies nothing again; a schema migrated by a newer version is refused', async () => {
    const schema = stores.schema('newer');
    const store = await stores.open({ schema });
    await store.close();
    await stores.open({ schema });
    expect(await sql(`SELECT version FROM "${schema}".migrations`)).toHaveLength(1);
    await sql(`INSERT INTO "${schema}".migrations (version, name) VALUES (99, 'from the future')`);
    const opened = await PostgresStore.open({ url: PG_URL, schema });
    expect(opened.ok ? null : opened.error.code).toBe('unsupported_schema_version');
  });

  it("schema - the URL's ?schema= names it; the current skills are rows a user can select by id or section", async () => {
    const schema = stores.schema('rows');
    const store = await stores.open({ schema, url: `${PG_URL}?schema=${schema}` });
    expect(store.schema).toBe(schema);
    const made = makeCommit(store.book, [
      addOp('first'),
      addOp('second', 'harness'),
      { type: 'TAG', section: 'context', skill_id: 'context-00001', metadata: { delta: 1 } },
    ]);
    expect((await store.append(made.commit)).ok).toBe(true);
    const byId = await sql<{ issue: string; helpful_count: number }>(
      `SELECT issue, helpful_count FROM "${schema}".skills WHERE id = 'context-00001'`,
    );
    expect(byId).toEqual([{ issue: 'first', helpful_count: 1 }]);
    const bySection = await sql<{ id: string }>(`SELECT id FROM "${schema}".skills WHERE section = 'harness'`);
    expect(bySection).toEqual([{ id: 'harness-00002' }]);
    const blocks = await sql<{ session_id: string; ops: unknown[] }>(`SELECT session_id, ops FROM "${schema}".audit_blocks`);
    expect(blocks.map((b) => [b.session_id, b.ops.length])).toEqual([[made.commit.sessionId, 3]]);
  });
});
