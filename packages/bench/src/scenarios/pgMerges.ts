/**
 * The PostgreSQL parts of scenario 7 (durable merges on PostgreSQL): a fresh schema per run,
 * and the naive approach — one transaction per merge that reads the whole JSON document,
 * changes it and writes it back.
 */
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { Skillbook } from '@cohort/skillbook';
import { describeOpenError } from '@cohort/store';
import { PostgresStore } from '@cohort/store-postgres';
import { aceAdd, aceDocOf, aceTag } from '../baselines/AceBook.ts';
import type { AceDoc } from '../baselines/AceBook.ts';
import { randomId } from '../books.ts';
import { now } from '../measure.ts';

/** The database: `COHORT_PG_URL`, or the machine's server. */
export const PG_URL = process.env['COHORT_PG_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';

/** Runs `text` (one or more statements) on a connection of its own to `url`. */
export async function sql(text: string, url = PG_URL): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(text);
  } finally {
    await client.end();
  }
}

/** Runs `fn` with a new schema holding a store created with `book`; the schema is dropped afterwards. */
export async function withPgStore<T>(book: Skillbook, fn: (schema: string) => Promise<T>): Promise<T> {
  const schema = `bench_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
  try {
    const opened = await PostgresStore.open({ url: PG_URL, schema, initialBook: book, listen: false });
    if (!opened.ok) throw new Error(`pg durable merges: ${describeOpenError(opened.error)}`);
    await opened.store.close();
    return await fn(schema);
  } finally {
    await sql(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => undefined);
  }
}

/**
 * The naive way: the document in one row; each of `committers` connections commits its merges
 * one at a time, each a transaction that locks the row, parses the whole JSON document,
 * applies the change, and writes the whole document back. Returns the ms for all of them.
 */
export async function naiveRun(
  book: Skillbook,
  size: number,
  committers: number,
  perCommitter: number,
  rand: () => number,
): Promise<number> {
  const schema = `naive_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
  const pool = new pg.Pool({ connectionString: PG_URL, max: Math.min(committers, 16) });
  pool.on('error', () => undefined);
  try {
    await pool.query(`CREATE SCHEMA "${schema}"; CREATE TABLE "${schema}".doc (id int PRIMARY KEY, body text NOT NULL)`);
    await pool.query(`INSERT INTO "${schema}".doc VALUES (1, $1)`, [JSON.stringify(aceDocOf(book), null, 2)]);
    const t0 = now();
    await Promise.all(
      Array.from({ length: committers }, async (_, c) => {
        for (let i = 0; i < perCommitter; i++) {
          const client = await pool.connect();
          try {
            await client.query('BEGIN');
            const r = await client.query<{ body: string }>(`SELECT body FROM "${schema}".doc WHERE id = 1 FOR UPDATE`);
            const doc = JSON.parse(r.rows[0]?.body ?? '{}') as AceDoc;
            aceAdd(doc, 'harness', `naive ${c}.${i}`, 'learned');
            aceTag(doc, randomId(size, rand), 'helpful');
            await client.query(`UPDATE "${schema}".doc SET body = $1 WHERE id = 1`, [JSON.stringify(doc, null, 2)]);
            await client.query('COMMIT');
          } finally {
            client.release();
          }
        }
      }),
    );
    return now() - t0;
  } finally {
    await pool.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => undefined);
    await pool.end();
  }
}
