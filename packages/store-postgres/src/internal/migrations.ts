import type { PoolClient } from 'pg';

/** One versioned change of the store's tables; `sql` is run with `{schema}` replaced by the quoted schema. */
interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}

/**
 * The store's tables, oldest change first. A migration is never edited once released: a
 * change is a new one. Every statement names its schema, so the store never depends on the
 * connection's `search_path`.
 */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'the book, its skills, commits with their audit blocks, leases, the log',
    sql: `
      CREATE TABLE {schema}.book (
        singleton boolean PRIMARY KEY DEFAULT true CHECK (singleton),
        revision bigint NOT NULL,
        next_id bigint NOT NULL,
        similarity json,
        created_by text NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now()
      );
      COMMENT ON TABLE {schema}.book IS 'The Skillbook''s revision and ACE next_id: one row, locked by every write.';
      CREATE SEQUENCE {schema}.skill_ids AS bigint MINVALUE 0 START 0;
      COMMENT ON SEQUENCE {schema}.skill_ids IS 'The global id counter: its value is the last number granted; a lease is a block of it.';
      CREATE TABLE {schema}.skills (
        id text PRIMARY KEY,
        section text NOT NULL,
        issue text NOT NULL,
        insight text,
        keywords text[] NOT NULL,
        occurrences json NOT NULL,
        active boolean NOT NULL,
        used_count integer NOT NULL,
        helpful_count integer NOT NULL,
        harmful_count integer NOT NULL,
        neutral_count integer NOT NULL,
        created_at text NOT NULL,
        updated_at text NOT NULL,
        revision bigint NOT NULL,
        added_revision bigint NOT NULL,
        added_index integer NOT NULL
      );
      CREATE INDEX skills_by_section ON {schema}.skills (section, added_revision, added_index);
      CREATE INDEX skills_in_order ON {schema}.skills (added_revision, added_index);
      COMMENT ON TABLE {schema}.skills IS 'The current skills, one row each, in document order by (added_revision, added_index); json, not jsonb, keeps ACE''s key order.';
      CREATE TABLE {schema}.commits (
        revision bigint PRIMARY KEY,
        kind text NOT NULL CHECK (kind IN ('commit', 'external')),
        writer_id text NOT NULL,
        session_id text NOT NULL,
        path text[] NOT NULL,
        at bigint NOT NULL,
        token text UNIQUE,
        external json,
        committed_at timestamptz NOT NULL DEFAULT now()
      );
      COMMENT ON TABLE {schema}.commits IS 'Every change of the book, in revision order: replaying them reproduces it.';
      CREATE TABLE {schema}.audit_blocks (
        revision bigint NOT NULL REFERENCES {schema}.commits (revision),
        position integer NOT NULL,
        session_id text NOT NULL,
        path text[] NOT NULL,
        name text,
        at bigint NOT NULL,
        ops json NOT NULL,
        PRIMARY KEY (revision, position)
      );
      CREATE INDEX audit_blocks_by_session ON {schema}.audit_blocks (session_id);
      COMMENT ON TABLE {schema}.audit_blocks IS 'One block per session of each commit: the ops that session wrote, in order.';
      CREATE TABLE {schema}.leases (
        number bigserial PRIMARY KEY,
        first bigint NOT NULL,
        past bigint NOT NULL,
        revision bigint NOT NULL,
        writer_id text NOT NULL,
        granted_at timestamptz NOT NULL DEFAULT now()
      );
      COMMENT ON TABLE {schema}.leases IS 'Id leases granted: numbers first up to, not including, past.';
      CREATE TABLE {schema}.log (
        id bigserial PRIMARY KEY,
        kind text NOT NULL CHECK (kind IN ('notice', 'conflict')),
        type text NOT NULL,
        revision bigint,
        session_id text,
        writer_id text NOT NULL,
        body json NOT NULL,
        logged_at timestamptz NOT NULL DEFAULT now()
      );
      COMMENT ON TABLE {schema}.log IS 'The conflict and notice log: commits refused for their conflicts, and the store''s notices.';
    `,
  },
];

/** The newest version this code knows. */
export const LATEST_VERSION = MIGRATIONS[MIGRATIONS.length - 1]?.version ?? 0;

/** `{schema}` in `sql` replaced by the quoted schema name (a checked identifier). */
export function inSchema(sql: string, schema: string): string {
  return sql.replaceAll('{schema}', `"${schema}"`);
}

/** What {@link migrate} found: the version the schema is at now, or a newer one than this code knows. */
export type MigrateResult =
  | { readonly ok: true; readonly applied: number; readonly version: number }
  | { readonly ok: false; readonly version: number };

/**
 * Creates the schema when absent and applies the migrations it lacks, in one transaction
 * under a transaction-scoped advisory lock on the schema's name: two processes opening at
 * once migrate once (the second waits, then finds nothing to do). Idempotent.
 */
export async function migrate(client: PoolClient, schema: string): Promise<MigrateResult> {
  await client.query('BEGIN');
  try {
    await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`cohort.migrate:${schema}`]);
    await client.query(inSchema('CREATE SCHEMA IF NOT EXISTS {schema}', schema));
    await client.query(
      inSchema(
        'CREATE TABLE IF NOT EXISTS {schema}.migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())',
        schema,
      ),
    );
    const done = await client.query<{ version: number }>(
      inSchema('SELECT coalesce(max(version), 0)::int AS version FROM {schema}.migrations', schema),
    );
    const at = done.rows[0]?.version ?? 0;
    if (at > LATEST_VERSION) {
      await client.query('ROLLBACK');
      return { ok: false, version: at };
    }
    const due = MIGRATIONS.filter((m) => m.version > at);
    for (const m of due) {
      await client.query(inSchema(m.sql, schema));
      await client.query(inSchema('INSERT INTO {schema}.migrations (version, name) VALUES ($1, $2)', schema), [m.version, m.name]);
    }
    await client.query('COMMIT');
    return { ok: true, applied: due.length, version: Math.max(at, LATEST_VERSION) };
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}
