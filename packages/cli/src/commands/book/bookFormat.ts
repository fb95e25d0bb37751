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

/** How many damage findings a report has, as words: `1 problem`, `2 problems`. */
export function problems(report: BookInspection): string {
  const n = report.findings.filter((f) => f.severity === 'damage').length;
  return `${n} problem${n === 1 ? '' : 's'}`;
}

/**
 * For a book that reads but whose store has damage (a torn journal tail, say): a warning on
 * stderr naming each finding, and the commands that show and repair it. Printing the book
 * without a word would let a damaged store pass for a healthy one.
 */
export function warnDamage(report: BookInspection, err: CliOutput): void {
  const found = report.findings.filter((f) => f.severity === 'damage');
  if (found.length === 0) return;
  const doc = report.document;
  err.write(`warning: ${doc} has ${problems(report)} (the book shown is what it opens to):\n`);
  for (const f of found) err.write(`  ${f.code}: ${f.message} (${f.file})\n`);
  err.write(`\`cohort book verify ${doc}\` shows it; \`cohort book repair ${doc} --yes\` repairs a damaged journal\n`);
}

/** `value` as indented JSON and a newline. */
export function json(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}
