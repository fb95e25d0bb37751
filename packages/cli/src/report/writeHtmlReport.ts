import { resolve } from 'node:path';
import { writeRunReport } from '@cohort/report';
import type { Recording } from '@cohort/report';
import type { CliIo } from '../CliIo.ts';

/**
 * Writes the run report of `recording` to `file` for a command's `--html <file>`, and says
 * where it went (on stderr, so the command's own output stays clean for a pipe). Resolves
 * with 0, or with 1 after a one-line error when the file cannot be written.
 *
 * @example
 * exit(await writeHtmlReport(recordEvents(report.timeline), 'sim.html', io));
 */
export async function writeHtmlReport(recording: Recording, file: string, io: CliIo): Promise<number> {
  try {
    const bytes = await writeRunReport(recording, file);
    io.err.write(`run report written to ${resolve(file)} (${formatBytes(bytes)}); open it in a browser\n`);
    return 0;
  } catch (error) {
    io.err.write(`cannot write the run report to ${file}: ${(error as Error).message}\n`);
    return 1;
  }
}

function formatBytes(n: number): string {
  return n < 1024 * 1024 ? `${Math.max(1, Math.round(n / 1024))} KB` : `${(n / (1024 * 1024)).toFixed(1)} MB`;
}
