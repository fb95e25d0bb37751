import { randomUUID } from 'node:crypto';
import pg from 'pg';

/** The database the tests use: `COHORT_PG_URL`, or the machine's server. */
export const PG_URL = process.env['COHORT_PG_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';

/** A fresh schema name for one test (the store creates it). */
export function freshSchema(prefix = 't'): string {
  return `${prefix}_${randomUUID().replaceAll('-', '').slice(0, 16)}`;
}

/** Runs one statement on its own connection to `url`. */
export async function sql<R extends pg.QueryResultRow = pg.QueryResultRow>(
  text: string,
  values: unknown[] = [],
  url = PG_URL,
): Promise<R[]> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => undefined);
  await client.connect();
  try {
    return (await client.query<R>(text, values)).rows;
  } finally {
    await client.end().catch(() => undefined);
  }
}

/** Drops a test's schema and everything in it. */
export async function dropSchema(schema: string, url = PG_URL): Promise<void> {
  await sql(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`, [], url);
}
