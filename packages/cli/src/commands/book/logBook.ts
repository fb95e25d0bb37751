import type { BookInspection, InspectedCommit } from '@cohort/store';
import type { CliIo } from '../../CliIo.ts';
import { optionValue, wholeNumber } from '../../optionValue.ts';
import { json, time } from './bookFormat.ts';
import { bookCommand } from './bookCommand.ts';

interface LogFlags {
  readonly json?: true;
  readonly limit?: number;
}

function where(e: InspectedCommit): string {
  if (e.kind === 'mark') return `(${e.ops.join(', ')})`;
  return e.path.length > 0 ? e.path.join('/') : (e.sessionId ?? '');
}

/** One aligned line per journal entry; `*` marks commits the document does not hold yet. */
function logLines(entries: readonly InspectedCommit[]): string {
  const writer = Math.max(6, ...entries.map((e) => e.writer.length));
  const path = Math.max(4, ...entries.map((e) => where(e).length));
  return entries.map((e) => {
    const what = e.kind === 'commit' ? e.ops.join(', ') : 'the document was re-based here';
    return `${e.inDocument ? ' ' : '*'}r${String(e.revision).padEnd(6)} ${time(e.at)}  ${e.writer.padEnd(writer)}  ${where(e).padEnd(path)}  ${what}\n`;
  }).join('');
}

function log(report: BookInspection, flags: LogFlags, io: CliIo): number {
  const entries = flags.limit ? report.entries.slice(-flags.limit) : report.entries;
  if (flags.json) {
    io.out.write(json(entries));
    return 0;
  }
  if (entries.length === 0) io.out.write('the journal is empty\n');
  io.out.write(logLines(entries));
  if (entries.some((e) => !e.inDocument)) io.out.write('\n* in the journal only: replayed onto the document on the next open\n');
  return 0;
}

/** `cohort book log <path> [--json] [--limit N]`: the audit journal, each commit with its session path. */
export const registerLogBook = bookCommand<LogFlags>({
  name: 'log',
  description: 'print the audit journal: each merged commit with its session path',
  json: 'machine-readable output (one object per entry)',
  progress: true,
  options: (command) => void command.option('--limit <n>', 'only the last N entries', optionValue(wholeNumber(1))),
  view: log,
});
