import type { RegisterCommand } from '../../CliCommand.ts';
import { registerLogBook } from './logBook.ts';
import { registerRecoverBook } from './recoverBook.ts';
import { registerShowBook } from './showBook.ts';
import { registerStatsBook } from './statsBook.ts';
import { registerVerifyBook } from './verifyBook.ts';

/** The `book` commands, in the order `cohort book --help` lists them. A new one is a file and a line here. */
const BOOK_COMMANDS: readonly RegisterCommand[] = [registerShowBook, registerStatsBook, registerLogBook, registerVerifyBook, registerRecoverBook];

/**
 * `cohort book <command> <path>`: read-only views of a file store's files — nothing is written
 * and no lock is taken, so they are safe while Cohort runs — and `recover`, which merges a
 * recovery copy back through the store. Exit 1 when the store cannot be read or is damaged, 2 on
 * a usage error.
 */
export const registerBook: RegisterCommand = (program, context) => {
  const book = program
    .command('book')
    .description("inspect a file store's Skillbook, journal and integrity (read-only); merge a recovery copy back")
    .addHelpText('after', '\nExamples:\n  cohort book show data/skillbook.json\n  cohort book log data/skillbook.json --limit 20\n  cohort book verify data/skillbook.json --json\n  cohort book recover data/skillbook.json data/skillbook.recovery-1f3a0c2b9d8e7f60.json\n');
  for (const register of BOOK_COMMANDS) register(book, context);
};
