/**
 * The ceiling for a durable commit per transaction on this machine, measured beside Cohort:
 * PostgreSQL's own `pgbench`, each client running one-row UPDATEs of a 100,000-row table,
 * each UPDATE its own transaction (one round trip and one WAL flush, shared between the
 * clients whose COMMITs meet). From Debian's `postgresql-contrib` or the server package.
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { withTempDir } from '../files.ts';
import { PG_URL, sql } from './pgMerges.ts';

const run = promisify(execFile);
const ROWS = 100_000;

/** The `pgbench` on PATH or beside the server, or `null`. */
async function findPgbench(): Promise<string | null> {
  for (const candidate of [
    'pgbench',
    '/usr/lib/postgresql/17/bin/pgbench',
    '/usr/lib/postgresql/16/bin/pgbench',
    '/usr/lib/postgresql/15/bin/pgbench',
  ]) {
    const found = await run(candidate, ['--version']).then(
      () => candidate,
      () => null,
    );
    if (found) return found;
  }
  return null;
}

/** What {@link withPgbench} hands its body: one pgbench run of `clients` × `perClient` transactions, as ms. */
export type PgbenchRun = (clients: number, perClient: number) => Promise<number>;

/** A pgbench to run, or why there is none. */
export type Pgbench = { readonly ok: true; readonly run: PgbenchRun } | { readonly ok: false; readonly reason: string };

/**
 * Runs `fn` with a pgbench run on a table in a schema of its own (dropped afterwards), or with
 * why there is none: not installed, or a first run of `probe` clients failed (the server's
 * `max_connections` taken by others, say). Each run's ms is the time pgbench reports for its
 * transactions (`tps`, without connection set-up), so that it compares with the committers'
 * runs, which start connected.
 */
export async function withPgbench<T>(probe: number, fn: (pgbench: Pgbench) => Promise<T>): Promise<T> {
  const pgbench = await findPgbench();
  if (!pgbench) return fn({ ok: false, reason: 'pgbench is not installed (Debian: postgresql-contrib)' });
  const schema = `pgbench_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
  const url = new URL(PG_URL);
  const where = [
    '-h',
    url.hostname,
    '-p',
    url.port || '5432',
    '-U',
    decodeURIComponent(url.username || 'postgres'),
    url.pathname.slice(1) || 'postgres',
  ];
  try {
    await sql(`CREATE SCHEMA "${schema}"; CREATE TABLE "${schema}".rows (id integer PRIMARY KEY, n bigint NOT NULL DEFAULT 0);
      INSERT INTO "${schema}".rows (id) SELECT generate_series(1, ${ROWS})`);
    return await withTempDir('pgbench', async (dir) => {
      const script = join(dir, 'update.sql');
      writeFileSync(script, `\\set id random(1, ${ROWS})\nUPDATE "${schema}".rows SET n = n + 1 WHERE id = :id;\n`);
      const once: PgbenchRun = async (clients, perClient) => {
        const args = ['-n', '-c', String(clients), '-j', '2', '-t', String(perClient), '-f', script, ...where];
        const { stdout } = await run(pgbench, args, { env: { ...process.env, PGPASSWORD: decodeURIComponent(url.password) } });
        const tps = Number(/tps = ([\d.]+)/.exec(stdout)?.[1]);
        if (!Number.isFinite(tps) || tps <= 0) throw new Error(`pgbench: no tps in its output:\n${stdout}`);
        return (clients * perClient * 1000) / tps;
      };
      const failed = await once(probe, 1).then(
        () => null,
        (error: unknown) =>
          (error instanceof Error ? error.message : String(error)).split('\n').find((l) => /error/i.test(l)) ?? 'pgbench failed',
      );
      return fn(failed === null ? { ok: true, run: once } : { ok: false, reason: `pgbench did not run: ${failed.trim()}` });
    });
  } finally {
    await sql(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`).catch(() => undefined);
  }
}
