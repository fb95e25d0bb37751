import type { BookInspection } from '@cohort/store';
import type { CliOutput } from '../../CliIo.ts';

/** The options every `book` command takes. */
export interface BookFlags {
  readonly json?: true;
}

/** Left-aligned `label  value` rows. */
export function rows(pairs: readonly (readonly [string, string | number])[]): string {
  const width = Math.max(...pairs.map(([k]) => k.length));
  return pairs.map(([k, v]) => `  ${k.padEnd(width)}  ${v}\n`).join('');
}

/** A timestamp as `2026-11-29T12:00:00Z`. */
export function time(ms: number): string {
  return new Date(ms).toISOString().replace('.000Z', 'Z');
}

/** For a book that cannot be read: its damage, and where to look. Exit code 1. */
export function damaged(report: BookInspection, err: CliOutput): number {
  err.write(`cannot read ${report.document}:\n`);
  for (const f of report.findings.filter((x) => x.severity === 'damage')) err.write(`  ${f.code}: ${f.message} (${f.file})\n`);
  err.write('run `cohort book verify` for details\n');
  return 1;
}

/** `value` as indented JSON and a newline. */
export function json(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}
