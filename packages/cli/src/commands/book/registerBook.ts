import type { RegisterCommand } from '../../CliCommand.ts';
import { registerExportBook } from './exportBook.ts';
import { registerImportBook } from './importBook.ts';
import { registerLogBook } from './logBook.ts';
import { registerRecoverBook } from './recoverBook.ts';
import { registerRepairBook } from './repairBook.ts';
import { registerShowBook } from './showBook.ts';
import { registerStatsBook } from './statsBook.ts';
import { registerVerifyBook } from './verifyBook.ts';

/** The `book` commands, in the order `cohort book --help` lists them. A new one is a file and a line here. */
const BOOK_COMMANDS: readonly RegisterCommand[] = [
  registerShowBook,
  registerStatsBook,
  registerLogBook,
  registerVerifyBook,
  registerRepairBook,
  registerRecoverBook,
  registerExportBook,
  registerImportBook,
];

/**
 * `cohort book <command> <path>`: read-only views of a file store's files (or of a PostgreSQL
 * store, given a `postgres://` URL). Nothing is written and no lock is taken, so they are safe
 * while Cohort runs; `repair` cuts a damaged journal only when told to (`--yes`), under the
 * writer lock; `recover` merges a recovery copy back through the store, and `export` and
 * `import` move ACE documents out of and into PostgreSQL. Exit 1 when the store cannot be read
 * or is damaged, 2 on a usage error.
 */
export const registerBook: RegisterCommand = (program, context) => {
  const book = program
    .command('book')
    .description(
      "inspect a store's Skillbook, journal and integrity (read-only); repair a damaged journal; merge a recovery copy back; ACE documents in and out of PostgreSQL",
    )
    .addHelpText(
      'after',
      '\nExamples:\n  cohort book show data/skillbook.json\n  cohort book log data/skillbook.json --limit 20\n  cohort book verify data/skillbook.json --json\n  cohort book repair data/skillbook.json --yes\n  cohort book recover data/skillbook.json data/skillbook.recovery-1f3a0c2b9d8e7f60.json\n  cohort book stats postgres://postgres@127.0.0.1:5432/app?schema=cohort\n  cohort book import skillbook.json postgres://postgres@127.0.0.1:5432/app\n',
    );
  for (const register of BOOK_COMMANDS) register(book, context);
};
