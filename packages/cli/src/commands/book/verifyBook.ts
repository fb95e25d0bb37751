import type { BookInspection } from '@cohort/store';
import type { RegisterCommand } from '../../CliCommand.ts';
import type { CliIo } from '../../CliIo.ts';
import { PATH_HELP, json } from './bookFormat.ts';
import type { BookFlags } from './bookFormat.ts';
import { readInspection } from './readInspection.ts';

function verify(report: BookInspection, flags: BookFlags, io: CliIo): number {
  const code = report.ok ? 0 : 1;
  if (flags.json) {
    io.out.write(json({ document: report.document, ok: report.ok, findings: report.findings }));
    return code;
  }
  for (const f of report.findings) {
    const p = f.position;
    const at = p?.line !== undefined ? `:${p.line}` : p?.offset !== undefined ? ` @${p.offset}` : '';
    io.out.write(`  ${f.severity.padEnd(7)} ${f.code.padEnd(26)} ${f.file}${at}: ${f.message}\n`);
  }
  const book = report.book;
  io.out.write(report.ok
    ? `ok: ${report.document} — revision ${book?.revision ?? '—'}, ${book?.size ?? 0} skills, ${report.journal.commits} journaled commits\n`
    : `damaged: ${report.document} — ${report.findings.filter((f) => f.severity === 'damage').length} problem(s); nothing was changed\n`);
  return code;
}

/** `cohort book verify <path> [--json]`: an integrity check; exit 1 on damage. Nothing is written. */
export const registerVerifyBook: RegisterCommand = (book, { io, exit }) => {
  book
    .command('verify')
    .description('check the document, ledger, base and journal; exit 1 on damage (nothing is written)')
    .argument('<path>', PATH_HELP)
    .option('--json', 'machine-readable output (every finding)')
    .action(async (path: string, flags: BookFlags) => {
      const report = await readInspection('verify', path, io, true);
      exit(report ? verify(report, flags, io) : 1);
    });
};
