import type { BookInspection } from '@cohort/store';
import type { RegisterCommand } from '../../CliCommand.ts';
import type { CliIo } from '../../CliIo.ts';
import { PATH_HELP, damaged, json } from './bookFormat.ts';
import type { BookFlags } from './bookFormat.ts';
import { readInspection } from './readInspection.ts';

function show(report: BookInspection, flags: BookFlags, io: CliIo): number {
  const book = report.book;
  if (!book) return damaged(report, io.err);
  io.out.write(flags.json ? json({ document: report.document, revision: book.revision, prompt: book.asPrompt() }) : `${book.asPrompt()}\n`);
  return 0;
}

/** `cohort book show <path> [--json]`: the Skillbook as the prompt sees it (document + journal). */
export const registerShowBook: RegisterCommand = (book, { io, exit }) => {
  book
    .command('show')
    .description('print the Skillbook as the prompt sees it (document + journal)')
    .argument('<path>', PATH_HELP)
    .option('--json', 'machine-readable output (revision and prompt)')
    .action(async (path: string, flags: BookFlags) => {
      const report = await readInspection('show', path, io, false);
      exit(report ? show(report, flags, io) : 1);
    });
};
