import type { BookInspection } from '@cohort/store';
import { inspectPostgres } from '@cohort/store-postgres';
import type { CliIo } from '../../CliIo.ts';

/** Whether a `book` command's target is a PostgreSQL store (`postgres://…` or `postgresql://…`, `?schema=` naming the schema). */
export function isPostgresUrl(target: string): boolean {
  return /^postgres(ql)?:\/\//i.test(target);
}

/**
 * Inspects the PostgreSQL store at `url` for `cohort book <command>`, or prints why it cannot
 * be opened on stderr and resolves with `null`.
 */
export async function readPostgresInspection(command: string, url: string, io: CliIo): Promise<BookInspection | null> {
  const report = await inspectPostgres({ url });
  if (report.book) return report;
  for (const f of report.findings) io.err.write(`cohort book ${command}: ${f.code}: ${f.message} (${f.file})\n`);
  return null;
}
