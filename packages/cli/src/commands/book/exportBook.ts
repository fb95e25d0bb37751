import { writeFile } from 'node:fs/promises';
import { describeOpenError } from '@cohort/store';
import { PostgresStore } from '@cohort/store-postgres';
import type { RegisterCommand } from '../../CliCommand.ts';

interface ExportFlags {
  readonly out?: string;
}

/**
 * `cohort book export <pg-url> [--out file]`: the store's book as an ACE schema-v2 document,
 * byte for byte what the file store writes for the same book, on stdout or into a file.
 * Nothing in the database is written. Exit 1 when the store cannot be opened.
 */
export const registerExportBook: RegisterCommand = (book, { io, exit }) => {
  book
    .command('export')
    .description("write a PostgreSQL store's book as an ACE schema-v2 document (stdout, or --out)")
    .argument('<pg-url>', 'the store, e.g. postgres://user@host:5432/db?schema=cohort')
    .option('--out <file>', 'write the document to this file instead of stdout')
    .action(async (url: string, flags: ExportFlags) => {
      const opened = await PostgresStore.open({ url, create: false, listen: false });
      if (!opened.ok) {
        io.err.write(`cohort book export: ${describeOpenError(opened.error)}\n`);
        exit(1);
        return;
      }
      const text = opened.store.book.toJSON();
      await opened.store.close();
      if (flags.out === undefined) {
        io.out.write(text);
        exit(0);
        return;
      }
      try {
        await writeFile(flags.out, text);
        io.err.write(`wrote ${flags.out}: revision ${opened.store.book.revision}, ${opened.store.book.size} skills\n`);
        exit(0);
      } catch (error) {
        io.err.write(`cohort book export: cannot write ${flags.out}: ${error instanceof Error ? error.message : String(error)}\n`);
        exit(1);
      }
    });
};
