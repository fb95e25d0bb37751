import { PG_URL, sql } from '../../../store-postgres/test/utils/pgSchema.ts';

export { PG_URL, sql };

/** A name of its own for one test's database or schema. */
export function freshName(prefix: string): string {
  return `${prefix}_${crypto.randomUUID().replaceAll('-', '').slice(0, 12)}`;
}

/** The URL of database `name` on the tests' server. */
export function databaseUrl(name: string): string {
  const u = new URL(PG_URL);
  u.pathname = `/${name}`;
  return u.toString();
}

/** Drops a test's system database (DBOS made it) and its store schema. */
export async function dropTestData(database: string, schema: string): Promise<void> {
  await sql(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
  await sql(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
}
