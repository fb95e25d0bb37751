import type { StoreOpenError } from '@cohort/store';
import { CommitSequencer } from '@cohort/store/adapter';
import type { ResolvedPostgresOptions } from '../PostgresStoreOptions.ts';
import { Database, messageOf } from './Database.ts';
import { LATEST_VERSION, migrate } from './migrations.ts';
import { readBook } from './readBook.ts';
import { StoreState } from './StoreState.ts';
import { createBook } from './writeCreated.ts';

/** What opening found: the store's shared state, or why it did not open (the pool is closed then). */
export type Opened = { readonly ok: true; readonly state: StoreState } | { readonly ok: false; readonly error: StoreOpenError };

/** Whether the schema exists (for `create: false`). */
async function schemaExists(db: Database, schema: string): Promise<boolean> {
  const r = await db.with((c) => c.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema]));
  return r.rows.length > 0;
}

async function openWith(db: Database, options: ResolvedPostgresOptions): Promise<Opened> {
  const fail = (code: StoreOpenError['code'], message: string, cause?: unknown): Opened => ({
    ok: false,
    error: { code, message, file: options.display, ...(cause === undefined ? {} : { cause }) },
  });
  if (!options.create && !(await schemaExists(db, options.schema)))
    return fail('missing_document', `there is no store in schema ${options.schema} (and create is false)`);
  const migrated = await db.with((c) => migrate(c, options.schema));
  if (!migrated.ok) {
    return fail(
      'unsupported_schema_version',
      `the schema is at version ${migrated.version}, newer than this version of Cohort knows (${LATEST_VERSION}): upgrade Cohort`,
    );
  }
  if (options.create) await db.with((c) => createBook(c, options.schema, options.initialBook, options.writerId, options.clock.now()));
  const read = await db.with((c) => readBook(c, options.schema));
  if (!read) return fail('missing_document', `there is no store in schema ${options.schema} (and create is false)`);
  const sequencer = new CommitSequencer(read.book);
  sequencer.takeLeases({ through: 0, ranges: [] }, read.leases);
  return { ok: true, state: new StoreState(options, db, sequencer, { leaseNumber: read.leaseNumber }) };
}

/**
 * Connects, migrates (under an advisory lock), creates the book when it does not exist and
 * reads it. Never throws: a database that cannot be reached, a schema newer than this code, or
 * no store with `create: false` is a value, and the pool is closed again.
 */
export async function openDatabase(options: ResolvedPostgresOptions): Promise<Opened> {
  const db = new Database(options);
  try {
    const opened = await openWith(db, options);
    if (!opened.ok) await db.end();
    return opened;
  } catch (error) {
    await db.end();
    return { ok: false, error: { code: 'io', message: `cannot open the store: ${messageOf(error)}`, file: options.display, cause: error } };
  }
}
