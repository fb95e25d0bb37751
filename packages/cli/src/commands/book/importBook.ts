import { readFile } from 'node:fs/promises';
import { describeOpenError } from '@cohort/store';
import { PostgresStore } from '@cohort/store-postgres';
import type { RegisterCommand } from '../../CliCommand.ts';

/**
 * `cohort book import <file> <pg-url>`: loads an ACE schema-v2 document into an empty
 * PostgreSQL store (created, with its schema, when it does not exist). A store that is not
 * empty, or a file that is not such a document, is refused and nothing is written (exit 1).
 */
export const registerImportBook: RegisterCommand = (book, { io, exit }) => {
  book
    .command('import')
    .description('load an ACE schema-v2 document into an empty PostgreSQL store')
    .argument('<file>', 'the ACE document, e.g. skillbook.json')
    .argument('<pg-url>', 'the store, e.g. postgres://user@host:5432/db?schema=cohort')
    .action(async (file: string, url: string) => {
      const text = await readFile(file, 'utf8').catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))));
      if (text instanceof Error) {
        io.err.write(`cohort book import: cannot read ${file}: ${text.message}\n`);
        exit(1);
        return;
      }
      const opened = await PostgresStore.open({ url, listen: false });
      if (!opened.ok) {
        io.err.write(`cohort book import: ${describeOpenError(opened.error)}\n`);
        exit(1);
        return;
      }
      const done = await opened.store.importDocument(text);
      await opened.store.close();
      if (!done.ok) {
        io.err.write(`cohort book import: ${done.error.code}: ${done.error.message}\n`);
        exit(1);
        return;
      }
      io.out.write(`imported ${file} into ${opened.store.url}: ${done.skills} skills, revision ${done.revision}\n`);
      exit(0);
    });
};
