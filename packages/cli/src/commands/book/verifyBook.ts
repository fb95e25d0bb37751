import type { BookInspection } from '@cohort/store';
import type { CliIo } from '../../CliIo.ts';
import { json, problems } from './bookFormat.ts';
import type { BookFlags } from './bookFormat.ts';
import { bookCommand } from './bookCommand.ts';

function verify(report: BookInspection, flags: BookFlags, io: CliIo): number {
  const code = report.ok ? 0 : 1;
  if (flags.json) {
    io.out.write(json({ document: report.document, ok: report.ok, findings: report.findings, copies: report.copies }));
    return code;
  }
  for (const f of report.findings) {
    const p = f.position;
    const at = p?.line !== undefined ? `:${p.line}` : p?.offset !== undefined ? ` @${p.offset}` : '';
    io.out.write(`  ${f.severity.padEnd(7)} ${f.code.padEnd(26)} ${f.file}${at}: ${f.message}\n`);
  }
  const book = report.book;
  const copies = report.copies;
  if (copies && copies.copies.length > 0) {
    io.out.write(
      `  copies  ${copies.copies.length} recovery cop${copies.copies.length === 1 ? 'y' : 'ies'}, ${copies.onlyInCopies} skill${copies.onlyInCopies === 1 ? '' : 's'} only in copies${copies.onlyInCopies > 0 ? ' (cohort book recover <path> <copy>)' : ''}\n`,
    );
    for (const c of copies.copies) {
      io.out.write(
        `    ${c.name}: ${c.skills === null ? `unreadable (${c.message ?? ''})` : `${c.skills} skill${c.skills === 1 ? '' : 's'}, ${c.onlyHere} only here, ${c.differing} the live book holds otherwise`}\n`,
      );
    }
  }
  io.out.write(
    report.ok
      ? `ok: ${report.document} — revision ${book?.revision ?? '—'}, ${book?.size ?? 0} skills, ${report.journal.commits} journaled commits\n`
      : `damaged: ${report.document} — ${problems(report)}; nothing was changed\n`,
  );
  return code;
}

/** `cohort book verify <path> [--json]`: an integrity check; exit 1 on damage. Nothing is written. */
export const registerVerifyBook = bookCommand<BookFlags>({
  name: 'verify',
  description:
    'check the document, ledger, base and journal, and count the skills only in recovery copies; exit 1 on damage (nothing is written)',
  json: 'machine-readable output (every finding)',
  progress: true,
  showsFindings: true,
  view: verify,
});
