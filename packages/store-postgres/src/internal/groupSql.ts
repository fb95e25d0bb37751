import pg from 'pg';
import type { PoolClient } from 'pg';
import { inSchema } from './migrations.ts';

/** What one group transaction writes, as JSON records (see {@link writeGroupRows}). */
export interface GroupRows {
  readonly commits: readonly Record<string, unknown>[];
  readonly blocks: readonly Record<string, unknown>[];
  readonly skills: readonly Record<string, unknown>[];
  /** Ids deleted outright (an external change's purges). */
  readonly purged: readonly string[];
  readonly log: readonly Record<string, unknown>[];
}

/**
 * Every write of a group but the leases, in one statement (one round trip): the commits and
 * their audit blocks, the skills they changed (a new skill takes its place in document
 * order; a changed one keeps it), purged skills, log records, the book's new revision and
 * `next_id`, and the notification other runtimes listen for (delivered at COMMIT, or never).
 */
const WRITE_GROUP = `
  WITH c AS (
    INSERT INTO {schema}.commits (revision, kind, writer_id, session_id, path, at, token, external)
    SELECT r.revision, r.kind, r.writer_id, r.session_id, ARRAY(SELECT json_array_elements_text(r.path)), r.at, r.token, r.external
    FROM json_to_recordset($1::json) AS r(revision bigint, kind text, writer_id text, session_id text, path json, at bigint, token text, external json)
    RETURNING 1
  ),
  b AS (
    INSERT INTO {schema}.audit_blocks (revision, position, session_id, path, name, at, ops)
    SELECT r.revision, r.position, r.session_id, ARRAY(SELECT json_array_elements_text(r.path)), r.name, r.at, r.ops
    FROM json_to_recordset($2::json) AS r(revision bigint, position integer, session_id text, path json, name text, at bigint, ops json)
    RETURNING 1
  ),
  d AS (
    DELETE FROM {schema}.skills WHERE id IN (SELECT json_array_elements_text($3::json))
    RETURNING 1
  ),
  k AS (
    INSERT INTO {schema}.skills (id, section, issue, insight, keywords, occurrences, active, used_count, helpful_count, harmful_count, neutral_count, created_at, updated_at, revision, added_revision, added_index)
    SELECT r.id, r.section, r.issue, r.insight, ARRAY(SELECT json_array_elements_text(r.keywords)), r.occurrences, r.active, r.used_count, r.helpful_count,
      r.harmful_count, r.neutral_count, r.created_at, r.updated_at, r.revision, r.added_revision, r.added_index
    FROM json_to_recordset($4::json) AS r(id text, section text, issue text, insight text, keywords json, occurrences json, active boolean,
      used_count integer, helpful_count integer, harmful_count integer, neutral_count integer, created_at text, updated_at text, revision bigint, added_revision bigint, added_index integer)
    ON CONFLICT (id) DO UPDATE SET section = EXCLUDED.section, issue = EXCLUDED.issue, insight = EXCLUDED.insight, keywords = EXCLUDED.keywords,
      occurrences = EXCLUDED.occurrences, active = EXCLUDED.active, used_count = EXCLUDED.used_count, helpful_count = EXCLUDED.helpful_count,
      harmful_count = EXCLUDED.harmful_count, neutral_count = EXCLUDED.neutral_count, created_at = EXCLUDED.created_at, updated_at = EXCLUDED.updated_at,
      revision = EXCLUDED.revision
    RETURNING 1
  ),
  l AS (
    INSERT INTO {schema}.log (kind, type, revision, session_id, writer_id, body)
    SELECT r.kind, r.type, r.revision, r.session_id, r.writer_id, r.body
    FROM json_to_recordset($5::json) AS r(kind text, type text, revision bigint, session_id text, writer_id text, body json)
    RETURNING 1
  ),
  n AS (SELECT pg_notify($8::text, $6::bigint::text) WHERE $9::boolean)
  UPDATE {schema}.book SET revision = $6::bigint, next_id = $7::bigint
  WHERE (SELECT count(*) FROM c) + (SELECT count(*) FROM b) + (SELECT count(*) FROM d) + (SELECT count(*) FROM k) + (SELECT count(*) FROM l) + (SELECT count(*) FROM n) >= 0`;

/** The channel other runtimes `LISTEN` on for the store in `schema`. */
export function channelOf(schema: string): string {
  return `cohort_${schema}`;
}

/** `sql` with its `$n` parameters written in as literals (a simple query can then carry more statements after it). */
export function withLiterals(sql: string, values: readonly (string | number | boolean)[]): string {
  return sql.replace(/\$(\d+)/g, (_, n: string) => {
    const v = values[Number(n) - 1];
    if (typeof v === 'string') return pg.escapeLiteral(v);
    if (typeof v === 'boolean' || (typeof v === 'number' && Number.isSafeInteger(v))) return String(v);
    throw new Error(`withLiterals: no literal for $${n}`);
  });
}

/**
 * Writes a group's rows and moves the book to `revision` and `nextId` (inside the group's
 * transaction). With `commit`, the COMMIT goes in the same round trip: the book's lock is
 * released one round trip sooner.
 */
export async function writeGroupRows(
  client: PoolClient,
  schema: string,
  rows: GroupRows,
  at: { readonly revision: number; readonly nextId: number },
  options: { readonly notify: boolean; readonly commit: boolean },
): Promise<void> {
  // one value per part: the server parses each once (a `json` value read with `->` is parsed again at every use)
  const parts = [rows.commits, rows.blocks, rows.purged, rows.skills, rows.log].map((part) => JSON.stringify(part));
  const write = withLiterals(inSchema(WRITE_GROUP, schema), [...parts, at.revision, at.nextId, channelOf(schema), options.notify]);
  await client.query(options.commit ? `${write};\nCOMMIT` : write);
}

/**
 * Grants `count` numbers of the id counter past `floor` (the book's `next_id` and every lease
 * this writer knows of): the sequence moves on and the lease is recorded, in the group's
 * transaction. The sequence does not roll back: a lease whose transaction fails leaves a gap,
 * never a number granted twice.
 */
export async function grantLease(
  client: PoolClient,
  schema: string,
  count: number,
  floor: number,
  revision: number,
  writerId: string,
): Promise<{ from: number; to: number }> {
  const r = await client.query<{ last: string }>(
    inSchema(`SELECT setval('{schema}.skill_ids', greatest(last_value, $1) + $2) AS last FROM {schema}.skill_ids`, schema),
    [floor, count],
  );
  const last = Number(r.rows[0]?.last);
  const lease = { from: last - count + 1, to: last + 1 };
  await client.query(inSchema('INSERT INTO {schema}.leases (first, past, revision, writer_id) VALUES ($1, $2, $3, $4)', schema), [
    lease.from,
    lease.to,
    revision,
    writerId,
  ]);
  return lease;
}
