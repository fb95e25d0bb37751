import type { BenchRow } from './Scenario.ts';
import { formatFigure } from './Scenario.ts';

const HEADER = ['', 'scenario', 'Cohort', 'baseline', 'ratio', 'target', 'met?'] as const;

/** The met? column: `yes`, `no`, `info`, or `not ranked` when the system compared failed its check. */
function metText(r: BenchRow, no: string): string {
  if (r.unranked !== undefined) return 'not ranked';
  return r.met === null ? 'info' : r.met ? 'yes' : no;
}

/** The rows as an aligned text table (what `./pnpmw bench` prints). */
export function formatTable(rows: readonly BenchRow[]): string {
  const cells = rows.map((r) => [
    r.id,
    r.scenario,
    formatFigure(r.cohort),
    formatFigure(r.baseline),
    r.ratioText,
    r.target.text,
    metText(r, 'NO'),
  ]);
  const widths = HEADER.map((h, i) => Math.max(h.length, ...cells.map((c) => (c[i] ?? '').length)));
  const line = (c: readonly string[]) =>
    c
      .map((v, i) => (i >= 2 && i <= 4 ? v.padStart(widths[i] ?? 0) : v.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  return [line(HEADER), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line)].join('\n');
}

/** The rows as a Markdown table (for docs/performance.md). */
export function formatMarkdown(rows: readonly BenchRow[]): string {
  const out = ['| | scenario | Cohort | baseline | ratio | target | met? |', '| --- | --- | ---: | ---: | ---: | --- | --- |'];
  for (const r of rows) {
    out.push(
      `| ${r.id} | ${r.scenario} | ${formatFigure(r.cohort)} | ${formatFigure(r.baseline)} | ${r.ratioText} | ${r.target.text} | ${metText(r, '**no**')} |`,
    );
  }
  return out.join('\n');
}
