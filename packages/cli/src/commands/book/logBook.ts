import type { BookInspection, InspectedCommit } from '@cohort/store';
import type { CliIo } from '../../CliIo.ts';
import { optionValue, wholeNumber } from '../../optionValue.ts';
import { printable } from '../../printable.ts';
import { json, time } from './bookFormat.ts';
import { bookCommand } from './bookCommand.ts';

interface LogFlags {
  readonly json?: true;
  readonly limit?: number;
}

// ids, session paths and writers come from sessions and other programs: shown escaped, one line each
function where(e: InspectedCommit): string {
  if (e.kind === 'mark') return printable(`(${e.ops.join(', ')})`);
  const name = e.blocks.find((b) => b.sessionId === e.sessionId)?.name;
  return printable(`${e.path.length > 0 ? e.path.join('/') : (e.sessionId ?? '')}${name ? ` (${name})` : ''}`);
}

function what(e: InspectedCommit): string {
  if (e.kind === 'mark') return 'the document was re-based here';
  if (e.kind === 'commit' && e.blocks.length > 1) return '';
  return printable(e.ops.join(', '));
}

/**
 * One aligned line per journal entry; `*` marks commits the document does not hold yet. A
 * commit of several sessions' blocks lists each block under it, indented by its depth below
 * the committing session: the tree of session paths that wrote it.
 */
function logLines(entries: readonly InspectedCommit[]): string {
  const writer = Math.max(6, ...entries.map((e) => printable(e.writer).length));
  const path = Math.max(4, ...entries.map((e) => where(e).length));
  return entries
    .map((e) => {
      const head =
        `${e.inDocument ? ' ' : '*'}r${String(e.revision).padEnd(6)} ${time(e.at)}  ${printable(e.writer).padEnd(writer)}  ${where(e).padEnd(path)}  ${what(e)}`.trimEnd();
      if (e.kind !== 'commit' || e.blocks.length <= 1) return `${head}\n`;
      const indent = ' '.repeat(8 + time(e.at).length + 2 + writer + 2);
      const blocks = e.blocks.map(
        (b) =>
          `${indent}${'  '.repeat(Math.max(0, b.path.length - e.path.length))}${printable(b.path.join('/'))}${b.name ? printable(` (${b.name})`) : ''}  ${printable(b.ops.join(', '))}\n`,
      );
      return `${head}\n${blocks.join('')}`;
    })
    .join('');
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

/** `cohort book log <path> [--json] [--limit N]`: the audit journal, each commit with its sessions' blocks. */
export const registerLogBook = bookCommand<LogFlags>({
  name: 'log',
  description: 'print the audit journal: each merged commit with the blocks its sessions wrote',
  json: 'machine-readable output (one object per entry)',
  progress: true,
  options: (command) => void command.option('--limit <n>', 'only the last N entries', optionValue(wholeNumber(1))),
  view: log,
});
