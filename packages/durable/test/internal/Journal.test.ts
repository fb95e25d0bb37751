/**
 * A server at its connection limit as a worker starts: the journal's first connection is
 * refused (SQLSTATE 53300; here the limit is a role's, which binds even where a superuser's
 * connections pass), and opening it waits and tries again instead of failing the worker.
 */
import { afterAll, expect, it } from 'vitest';
import { Journal } from '../../src/internal/Journal.ts';
import { databaseUrl, freshName, sql } from '../utils/pg.ts';

const role = freshName('cohort_limited');
const database = freshName('cohort_journal_test');

afterAll(async () => {
  await sql(`DROP DATABASE IF EXISTS "${database}" WITH (FORCE)`);
  await sql(`DROP ROLE IF EXISTS "${role}"`);
});

it('Journal.open - the server refuses connections at its limit: it tries again, and opens once one is free', async () => {
  await sql(`CREATE ROLE "${role}" LOGIN CONNECTION LIMIT 0`);
  await sql(`CREATE DATABASE "${database}" OWNER "${role}"`);
  const url = new URL(databaseUrl(database));
  url.username = role;
  const journal = new Journal(url.toString());
  try {
    const opened = journal.open().then(
      () => 'open',
      (err: unknown) => err,
    );
    await new Promise((r) => setTimeout(r, 300));
    await sql(`ALTER ROLE "${role}" CONNECTION LIMIT -1`);
    expect(await opened).toBe('open');
    expect(await journal.record('unit', 'key', 'value')).toBe('value');
  } finally {
    await journal.close();
  }
});
