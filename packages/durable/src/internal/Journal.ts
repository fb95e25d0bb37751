import pg from 'pg';
import { CREATE_EVENT_TABLES } from './EventLog.ts';
import type { Records } from './Records.ts';
import { isConnectionError, retryOnConnectionError } from './retry.ts';

/** The schema, in the DBOS system database, that holds what the units record. */
export const JOURNAL_SCHEMA = 'cohort_durable';

/** The table of workers, in the system database: each one's last heartbeat, and who took over its work (see `Takeover`). */
export const WORKERS_TABLE = `${JOURNAL_SCHEMA}.workers`;

const CREATE_WORKERS = `CREATE TABLE IF NOT EXISTS ${WORKERS_TABLE} (
  executor text PRIMARY KEY, app_version text NOT NULL,
  started_at timestamptz NOT NULL DEFAULT now(), beat_at timestamptz NOT NULL DEFAULT now(),
  adopted_by text, adopted_at timestamptz)`;

/**
 * What durable units record, by key: the id leases a unit was granted, the order in which a
 * session merged its remote children, a root's base revision. DBOS's own steps are recorded by
 * position (the n-th step of a workflow), which only holds when a workflow calls its steps in
 * one order every time; the sessions of a tree run concurrently, so the same two leases or
 * merges can be asked for in either order. A key names what is recorded whatever the
 * interleaving: `lease:3` is a unit's third lease, `order:0.2:5` the sixth merge into session `0.2`.
 *
 * One row per (unit, key), written once: the first value recorded is the value, for every
 * process that asks later.
 */
export class Journal implements Records {
  private readonly pool: pg.Pool;
  private ready: Promise<void> | null = null;

  constructor(url: string) {
    this.pool = new pg.Pool({ connectionString: url, max: 4, application_name: 'cohort durable' });
    // a broken idle connection is replaced by the pool; an unobserved error would end the process
    this.pool.on('error', () => undefined);
  }

  /**
   * Creates the schema and table when absent (workers start together: serialised by an advisory
   * lock), tried again when the connection is lost or refused (a server at its limit as a worker starts).
   */
  open(): Promise<void> {
    this.ready ??= retryOnConnectionError(async () => {
      const client = await this.pool.connect();
      let lost = false;
      try {
        await client.query('BEGIN');
        await client.query("SELECT pg_advisory_xact_lock(hashtext('cohort_durable.journal'))");
        await client.query(`CREATE SCHEMA IF NOT EXISTS ${JOURNAL_SCHEMA}`);
        await client.query(`CREATE TABLE IF NOT EXISTS ${JOURNAL_SCHEMA}.records (
          unit text NOT NULL, key text NOT NULL, value jsonb NOT NULL, at timestamptz NOT NULL DEFAULT now(),
          PRIMARY KEY (unit, key))`);
        await client.query(CREATE_WORKERS);
        for (const ddl of CREATE_EVENT_TABLES) await client.query(ddl);
        await client.query('COMMIT');
      } catch (err) {
        lost = isConnectionError(err);
        if (!lost) await client.query('ROLLBACK').catch(() => undefined);
        throw err;
      } finally {
        // a lost connection is not handed out again: the next try connects afresh
        client.release(lost);
      }
    });
    return this.ready;
  }

  /** Runs one statement on the journal's pool (the workers' heartbeats share it). */
  async query<R extends object>(text: string, params: unknown[]): Promise<{ rows: R[] }> {
    return this.run<R>(text, params);
  }

  /** One statement, tried again when its connection is lost: every statement here is safe to repeat. */
  private run<R extends object>(text: string, params: unknown[]): Promise<{ rows: R[] }> {
    return retryOnConnectionError(() => this.pool.query<R>(text, params));
  }

  /** The value recorded under `key` for `unit`, or undefined. */
  async get(unit: string, key: string): Promise<unknown> {
    const text = `SELECT value FROM ${JOURNAL_SCHEMA}.records WHERE unit = $1 AND key = $2`;
    const { rows } = await this.run<{ value: unknown }>(text, [unit, key]);
    return rows[0]?.value;
  }

  /** Records `value` under `key` unless something is recorded there already; the value that stands. */
  async record(unit: string, key: string, value: unknown): Promise<unknown> {
    const { rows } = await this.run<{ value: unknown }>(
      `INSERT INTO ${JOURNAL_SCHEMA}.records (unit, key, value) VALUES ($1, $2, $3::jsonb)
       ON CONFLICT (unit, key) DO NOTHING RETURNING value`,
      [unit, key, JSON.stringify(value)],
    );
    return rows.length > 0 ? rows[0]?.value : this.get(unit, key);
  }

  /**
   * The value recorded under `key`, or what `make` gives, recorded first. A crash between
   * `make` and the record loses what `make` did (a lease's ids stay unused: a gap, never a reuse).
   */
  async recorded<T>(unit: string, key: string, make: () => Promise<T>): Promise<T> {
    const found = await this.get(unit, key);
    if (found !== undefined) return found as T;
    return (await this.record(unit, key, await make())) as T;
  }

  /** Every key of `unit` that starts with `prefix`, with its value. */
  async list(unit: string, prefix: string): Promise<{ key: string; value: unknown }[]> {
    const { rows } = await this.run<{ key: string; value: unknown }>(
      `SELECT key, value FROM ${JOURNAL_SCHEMA}.records WHERE unit = $1 AND starts_with(key, $2)`,
      [unit, prefix],
    );
    return rows;
  }

  close(): Promise<void> {
    return this.pool.end();
  }
}
