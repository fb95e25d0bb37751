import { randomUUID } from 'node:crypto';
import pg from 'pg';

/** The machine's PostgreSQL: the store's database, and the server the tests make system databases on. */
export const PG_URL = process.env['COHORT_PG_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';

/** A name of its own for one test's database or schema. */
export function freshName(prefix: string): string {
  return `${prefix}_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
}

/** The URL of database `name` on the tests' server. */
export function databaseUrl(name: string): string {
  const u = new URL(PG_URL);
  u.pathname = `/${name}`;
  return u.toString();
}

/** Runs one statement on its own connection. */
export async function sql<R extends pg.QueryResultRow = pg.QueryResultRow>(text: string, values: unknown[] = [], url = PG_URL): Promise<R[]> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => undefined);
  await client.connect();
  try {
    return (await client.query<R>(text, values)).rows;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Drops a test's system database (DBOS made it) and its store schema. */
export async function dropTestData(database: string, schema: string): Promise<void> {
  await sql(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
  await sql(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
}
