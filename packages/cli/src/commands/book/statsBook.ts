import type { BookInspection } from '@cohort/store';
import type { CliIo } from '../../CliIo.ts';
import { damaged, json, rows } from './bookFormat.ts';
import type { BookFlags } from './bookFormat.ts';
import { bookCommand } from './bookCommand.ts';
import { isPostgresUrl } from './postgresTarget.ts';

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
    conflictLogRecords: report.conflictLog.length + (report.refusedCommits ?? 0),
    ...(report.refusedCommits === undefined ? {} : { refusedCommits: report.refusedCommits }),
    lock: report.lock,
  };
  if (flags.json) {
    io.out.write(json(summary));
    return 0;
  }
  io.out.write(`${report.document}\n`);
  const counts: [string, string | number][] = [
    ['skills', `${s.skills} (${s.active_skills} active)`],
    ...Object.entries(s.by_section).map(([k, v]): [string, number] => [`  ${k}`, v]),
  ];
  const conflictLog: [string, string] = ['conflict log', conflictLogCount(report)];
  // a PostgreSQL store has its commits in a table: no journal file, recovery copies or lock file
  if (isPostgresUrl(report.document)) {
    io.out.write(rows([['revision', book.revision], ...counts, ['commits', report.journal.commits], conflictLog]));
    return 0;
  }
  io.out.write(
    rows([
      [
        'revision',
        `${book.revision} (document at ${summary.documentRevision ?? '—'}, ${report.journal.pastDocument} in the journal past it)`,
      ],
      ...counts,
      ['journal', `${report.journal.commits} commits, ${report.journal.marks} marks, ${report.journal.bytes} bytes`],
      ['recovery copies', report.recoveryCopies.length === 0 ? 'none' : report.recoveryCopies.join(', ')],
      conflictLog,
      ['lock', report.lock ? `pid ${report.lock.pid} on ${report.lock.host} (${report.lock.writerId})` : 'free'],
    ]),
  );
  return 0;
}

/** The conflict log's size in words: `3 records`, or with its refused commits (a PostgreSQL store), `3 records: 2 refused commits, 1 notice`. */
function conflictLogCount(report: BookInspection): string {
  const notices = report.conflictLog.length;
  const refused = report.refusedCommits;
  const total = notices + (refused ?? 0);
  const records = `${total} record${total === 1 ? '' : 's'}`;
  if (refused === undefined) return records;
  return `${records}: ${refused} refused commit${refused === 1 ? '' : 's'}, ${notices} notice${notices === 1 ? '' : 's'}`;
}

/** `cohort book stats <path> [--json]`: counts, revisions, journal, recovery copies, conflict log, lock. */
export const registerStatsBook = bookCommand<BookFlags>({
  name: 'stats',
  description: 'print skill counts, revisions, journal, recovery copies, conflict log and lock',
  json: 'machine-readable output',
  progress: false,
  view: stats,
});
