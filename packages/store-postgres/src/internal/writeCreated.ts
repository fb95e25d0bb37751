import type { PoolClient } from 'pg';
import type { Skillbook } from '@cohort/skillbook';
import { createdCommit } from '@cohort/store/adapter';
import { writeGroupRows } from './groupSql.ts';
import type { GroupRows } from './groupSql.ts';
import { inSchema } from './migrations.ts';
import { serialiseExternal, skillRecord } from './rows.ts';

/** The `similarity_decisions` object of `book`'s document, as its text (`{}` when it has none). */
export function similarityText(book: Skillbook): string {
  const doc = book.toJSON();
  const at = doc.lastIndexOf('"similarity_decisions": ');
  return at < 0 ? '{}' : doc.slice(at + '"similarity_decisions": '.length, doc.length - 2);
}

/**
 * Writes `book` as a store's first content, inside the caller's transaction (the book row
 * exists and is locked, at revision 0 with no skills): every skill in document order, one
 * `external` commit (reason `created`) that replays to it, the revision, `next_id` and the
 * document's similarity decisions.
 */
export async function writeCreated(
  client: PoolClient,
  schema: string,
  book: Skillbook,
  writerId: string,
  at: number,
  notify: boolean,
): Promise<void> {
  const revision = book.revision;
  const created = createdCommit(book, writerId, at);
  const external = created.external;
  const rows: GroupRows = {
    commits: [
      {
        revision,
        kind: 'external',
        writer_id: writerId,
        session_id: created.sessionId,
        path: created.path,
        at,
        token: null,
        external: external ? serialiseExternal(external) : null,
      },
    ],
    blocks: created.entries.map((b, position) => ({
      revision,
      position,
      session_id: b.sessionId,
      path: b.path,
      name: b.name ?? null,
      at: b.at,
      ops: [],
    })),
    skills: [...book.skills()].map((skill, index) => skillRecord(skill, revision, [revision, index])),
    purged: [],
    log: [],
  };
  await writeGroupRows(client, schema, rows, { revision, nextId: book.nextId }, { notify, commit: false });
  await client.query(inSchema("UPDATE {schema}.book SET similarity = $1::json WHERE $1 <> '{}'", schema), [similarityText(book)]);
  await client.query(inSchema("SELECT setval('{schema}.skill_ids', greatest(last_value, $1)) FROM {schema}.skill_ids", schema), [
    book.nextId,
  ]);
}

/**
 * Creates the book's row when there is none (the first process to open a new store): with
 * `initial`'s content when it has any. Two processes creating at once: one inserts, the other
 * waits on the row and finds it there. Returns whether this call created it.
 */
export async function createBook(
  client: PoolClient,
  schema: string,
  initial: Skillbook | null,
  writerId: string,
  at: number,
): Promise<boolean> {
  await client.query('BEGIN');
  try {
    const inserted = await client.query(
      inSchema('INSERT INTO {schema}.book (revision, next_id, created_by) VALUES (0, 0, $1) ON CONFLICT DO NOTHING RETURNING 1', schema),
      [writerId],
    );
    const created = inserted.rows.length > 0;
    if (created && initial && initial.size > 0) await writeCreated(client, schema, initial, writerId, at, false);
    await client.query('COMMIT');
    return created;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw error;
  }
}
