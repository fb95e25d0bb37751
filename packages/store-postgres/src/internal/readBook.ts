import type { PoolClient } from 'pg';
import { Skillbook } from '@cohort/skillbook';
import type { IdLease } from '@cohort/store';
import { withLiterals } from './groupSql.ts';
import { inSchema } from './migrations.ts';
import { HISTORY_SQL, SKILL_COLUMNS, skillOfRow } from './rows.ts';
import type { CommitRow, SkillRow } from './rows.ts';

/** The book's row: its revision and ACE `next_id`. */
export interface BookRow {
  readonly revision: number;
  readonly nextId: number;
  /** ACE's `similarity_decisions` as the imported document wrote them (`null`: none). */
  readonly similarity: string | null;
}

/** The leases granted past number `after`, and the newest lease's number. */
export interface LeasesRead {
  readonly leases: readonly IdLease[];
  readonly last: number;
}

/** What the store holds, read in one snapshot: the book at its revision, the leases, the id counter. */
export interface BookRead {
  readonly book: Skillbook;
  /** Every lease granted, oldest first. */
  readonly leases: readonly IdLease[];
  /** The number of the newest lease (0: none). */
  readonly leaseNumber: number;
}

/** The book, leases and first history page as {@link readHead} read them: the database past a writer's position. */
export interface HeadRead {
  /** The book's row (`null`: the store was never created). */
  readonly row: BookRow | null;
  readonly leases: LeasesRead;
  /** Up to `page` commits past the revision asked for, oldest first (some may be past `row`'s revision). */
  readonly commits: readonly CommitRow[];
}

type BookRowRow = { revision: string; next_id: string; similarity: string | null };
type LeaseRow = { number: string; first: string; past: string };

const BOOK_ROW_SQL = 'SELECT revision, next_id, similarity::text AS similarity FROM {schema}.book';
const LEASES_SQL = 'SELECT number, first, past FROM {schema}.leases WHERE number > $1 ORDER BY number';

function bookRowOf(row: BookRowRow | undefined): BookRow | null {
  return row ? { revision: Number(row.revision), nextId: Number(row.next_id), similarity: row.similarity } : null;
}

function leasesOf(rows: readonly LeaseRow[], after: number): LeasesRead {
  const leases = rows.map((row) => ({ from: Number(row.first), to: Number(row.past) }));
  const last = rows.length > 0 ? Number(rows[rows.length - 1]?.number) : after;
  return { leases, last };
}

/** The book's row, or `null` when the store was never created. `FOR UPDATE` takes the write lock. */
export async function readBookRow(client: PoolClient, schema: string, lock: boolean): Promise<BookRow | null> {
  const r = await client.query<BookRowRow>(inSchema(`${BOOK_ROW_SQL}${lock ? ' FOR UPDATE' : ''}`, schema));
  return bookRowOf(r.rows[0]);
}

/** Leases numbered past `after`, in the order granted. */
export async function readLeases(client: PoolClient, schema: string, after: number): Promise<LeasesRead> {
  const r = await client.query<LeaseRow>(inSchema(LEASES_SQL, schema), [after]);
  return leasesOf(r.rows, after);
}

/** Where {@link readHead} reads from: past `revision` and lease number `leaseNumber`, at most `page` commits. */
export interface HeadQuery {
  readonly revision: number;
  readonly leaseNumber: number;
  readonly page: number;
  /** Begin a transaction and take the book's write lock first: what follows is read after every earlier writer committed. */
  readonly lock: boolean;
}

/**
 * The book's row, the leases past `leaseNumber` and the first page of commits past
 * `revision`, in one round trip: the statements go as one simple query (the numbers written
 * into its text), each with a snapshot of its own, so with `lock` the leases and commits are
 * read once the lock is held — the part of a group that runs under the lock is one round
 * trip shorter per statement.
 */
export async function readHead(client: PoolClient, schema: string, q: HeadQuery): Promise<HeadRead> {
  for (const n of [q.revision, q.leaseNumber, q.page]) if (n < 0) throw new Error(`readHead: ${n} is not a position to write into a query`);
  const statements = [
    ...(q.lock ? ['BEGIN', `${BOOK_ROW_SQL} FOR UPDATE`] : [BOOK_ROW_SQL]),
    withLiterals(LEASES_SQL, [q.leaseNumber]),
    withLiterals(HISTORY_SQL, [q.revision, q.page]),
  ];
  const results = (await client.query(inSchema(statements.join(';\n'), schema))) as unknown as { rows: unknown[] }[];
  const [bookRows, leaseRows, commitRows] = results.slice(q.lock ? 1 : 0).map((r) => r.rows);
  return {
    row: bookRowOf((bookRows as BookRowRow[] | undefined)?.[0]),
    leases: leasesOf((leaseRows ?? []) as LeaseRow[], q.leaseNumber),
    commits: (commitRows ?? []) as CommitRow[],
  };
}

/** `book` with the document's `similarity_decisions` (ACE's, kept as it was imported), at the same revision. */
function withSimilarity(book: Skillbook, similarity: string | null): Skillbook {
  if (similarity === null || similarity === '{}') return book;
  const text = book.toJSON().replace(/"similarity_decisions": \{\}\n\}$/, () => `"similarity_decisions": ${similarity}\n}`);
  const parsed = Skillbook.parse(text, { revision: book.revision });
  return parsed.ok ? parsed.book : book;
}

/** The book, leases and counter, read with `client` (in the caller's transaction). */
async function readAll(client: PoolClient, schema: string): Promise<BookRead | null> {
  const row = await readBookRow(client, schema, false);
  if (!row) return null;
  const skills = await client.query<SkillRow>(
    inSchema(`SELECT ${SKILL_COLUMNS} FROM {schema}.skills ORDER BY added_revision, added_index`, schema),
  );
  const leases = await readLeases(client, schema, 0);
  const empty = Skillbook.empty({ revision: row.revision });
  const book =
    skills.rows.length === 0 && row.nextId === 0
      ? empty
      : empty.adopt({ skills: skills.rows.map(skillOfRow), purged: [], nextId: row.nextId }, { revision: row.revision });
  return { book: withSimilarity(book, row.similarity), leases: leases.leases, leaseNumber: leases.last };
}

/**
 * Reads the whole book (the `skills` table in document order, the book row, every lease) in
 * one snapshot, or `null` when the store was never created. The book is at the stored
 * revision, every skill's parts at it too: a commit based on an older revision cannot be
 * checked by this reader, and is refused as a revision mismatch. `inTransaction`: read in the
 * caller's transaction instead of a repeatable-read one of its own.
 */
export async function readBook(client: PoolClient, schema: string, inTransaction = false): Promise<BookRead | null> {
  if (inTransaction) return readAll(client, schema);
  await client.query('BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY');
  try {
    return await readAll(client, schema);
  } finally {
    await client.query('COMMIT');
  }
}
