import type { BookInspection } from '@cohort/store';
import type { CliIo } from '../../CliIo.ts';
import { damaged, json } from './bookFormat.ts';
import type { BookFlags } from './bookFormat.ts';
import { bookCommand } from './bookCommand.ts';

function show(report: BookInspection, flags: BookFlags, io: CliIo): number {
  const book = report.book;
  if (!book) return damaged(report, io.err);
  io.out.write(flags.json ? json({ document: report.document, revision: book.revision, prompt: book.asPrompt() }) : `${book.asPrompt()}\n`);
  return 0;
}

/** `cohort book show <path> [--json]`: the Skillbook as the prompt sees it (document + journal). */
export const registerShowBook = bookCommand<BookFlags>({
  name: 'show',
  description: 'print the Skillbook as the prompt sees it (document + journal)',
  json: 'machine-readable output (revision and prompt)',
  progress: false,
  view: show,
});
