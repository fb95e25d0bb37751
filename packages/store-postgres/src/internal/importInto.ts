import { Skillbook } from '@cohort/skillbook';
import type { ImportResult } from '../ImportResult.ts';
import { messageOf } from './Database.ts';
import { inSchema } from './migrations.ts';
import { readBookRow } from './readBook.ts';
import type { StoreState } from './StoreState.ts';
import { writeCreated } from './writeCreated.ts';

/**
 * Loads an ACE schema-v2 document into an empty store (revision 0, no skills, no commits), in
 * one transaction under the book's lock: its skills, `next_id` and similarity decisions, as one
 * `external` commit (reason `created`) at revision 1. A store that is not empty, or a document
 * that does not parse, is refused and nothing is written.
 */
export async function importInto(s: StoreState, text: string): Promise<ImportResult> {
  const parsed = Skillbook.parse(text, { revision: 1 });
  if (!parsed.ok)
    return {
      ok: false,
      error: { code: 'invalid_request', message: `not an ACE schema-v2 document: ${parsed.error.message}`, cause: parsed.error },
    };
  const book = parsed.book;
  try {
    const done = await s.db.transaction(async (client): Promise<ImportResult> => {
      const row = await readBookRow(client, s.options.schema, true);
      const found = await client.query(
        inSchema('SELECT (SELECT count(*) FROM {schema}.skills) + (SELECT count(*) FROM {schema}.commits) AS n', s.options.schema),
      );
      if (row?.revision !== 0 || Number(found.rows[0]?.n) !== 0) {
        return {
          ok: false,
          error: {
            code: 'invalid_request',
            message: `the store is not empty (revision ${row?.revision ?? '?'}): import loads a document into an empty store only`,
          },
        };
      }
      await writeCreated(client, s.options.schema, book, s.options.writerId, s.options.clock.now(), true);
      return { ok: true, revision: book.revision, skills: book.size };
    });
    if (done.ok && s.sequencer.book.revision === 0) s.sequencer.absorb(book);
    return done;
  } catch (error) {
    return {
      ok: false,
      error: { code: 'io', message: `the database could not be written: ${messageOf(error)}; nothing was imported`, cause: error },
    };
  }
}
