import type { BookInspection } from '@cohort/store';
import type { RegisterCommand } from '../../CliCommand.ts';
import type { CliIo } from '../../CliIo.ts';
import { PATH_HELP, damaged, json, rows } from './bookFormat.ts';
import type { BookFlags } from './bookFormat.ts';
import { readInspection } from './readInspection.ts';

function stats(report: BookInspection, flags: BookFlags, io: CliIo): number {
  const book = report.book;
  if (!book) return damaged(report, io.err);
  const s = book.stats();
  const summary = {
    document: report.document,
    revision: book.revision,
    documentRevision: report.ledger?.revision ?? null,
    skills: s.skills,
    activeSkills: s.active_skills,
    bySection: s.by_section,
    journal: report.journal,
    recoveryCopies: report.recoveryCopies,
    conflictLogRecords: report.conflictLog.length,
    lock: report.lock,
  };
  if (flags.json) {
    io.out.write(json(summary));
    return 0;
  }
  io.out.write(`${report.document}\n`);
  io.out.write(rows([
    ['revision', `${book.revision} (document at ${summary.documentRevision ?? '—'}, ${report.journal.pastDocument} in the journal past it)`],
    ['skills', `${s.skills} (${s.active_skills} active)`],
    ...Object.entries(s.by_section).map(([k, v]): [string, number] => [`  ${k}`, v]),
    ['journal', `${report.journal.commits} commits, ${report.journal.marks} marks, ${report.journal.bytes} bytes`],
    ['recovery copies', report.recoveryCopies.length === 0 ? 'none' : report.recoveryCopies.join(', ')],
    ['conflict log', `${report.conflictLog.length} records`],
    ['lock', report.lock ? `pid ${report.lock.pid} on ${report.lock.host} (${report.lock.writerId})` : 'free'],
  ]));
  return 0;
}

/** `cohort book stats <path> [--json]`: counts, revisions, journal, recovery copies, conflict log, lock. */
export const registerStatsBook: RegisterCommand = (book, { io, exit }) => {
  book
    .command('stats')
    .description('print skill counts, revisions, journal, recovery copies, conflict log and lock')
    .argument('<path>', PATH_HELP)
    .option('--json', 'machine-readable output')
    .action(async (path: string, flags: BookFlags) => {
      const report = await readInspection('stats', path, io, false);
      exit(report ? stats(report, flags, io) : 1);
    });
};
