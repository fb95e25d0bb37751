/**
 * The peer comparison as a table for people: a line per system, a column per workload (its
 * time, and how it compares with Cohort's), its peak memory, and whether a crashed child's
 * writes were dropped.
 */
import { formatNumber } from '../Scenario.ts';
import type { PeerCell, PeerLine, PeerTable } from './PeerTable.ts';
import { ranked, worstVerdict } from './PeerTable.ts';

/** A duration in ms as text: `579 ms`, `3.50 s`, `30 s`. */
function duration(ms: number): string {
  if (ms < 1000) return `${formatNumber(ms)} ms`;
  return Number.isInteger(ms / 1000) ? `${ms / 1000} s` : `${formatNumber(ms / 1000)} s`;
}

/** How `cell` compares with Cohort's: `2.50× slower`, `12.0× faster`. */
function comparison(cell: PeerCell, cohort: PeerCell | undefined): string {
  if (!cohort) return '';
  const r = cell.time.value / cohort.time.value;
  if (cell.capped) return `> ${formatNumber(r)}× slower`;
  return r >= 1 ? `${formatNumber(r)}× slower` : `${formatNumber(1 / r)}× faster`;
}

function timeText(cell: PeerCell | undefined, cohort: PeerCell | undefined, line: PeerLine): string {
  if (!cell) return '—';
  const time = cell.capped ? `> ${duration(cell.time.value)} (cap)` : duration(cell.time.value);
  if (line.key === 'cohort' || !ranked(line)) return time;
  return `${time}, ${comparison(cell, cohort)}`;
}

function memoryText(line: PeerLine): string {
  const m = line.memory;
  if (m.increaseMb === null) return '—';
  return `+${formatNumber(m.increaseMb)} MB${m.capped ? ' at the cap' : ''}`;
}

function crashText(line: PeerLine): string {
  const v = worstVerdict(line);
  if (v === null) return 'not checked';
  if (v.ok) return 'dropped';
  if (v.crashedKept > 0) return `KEPT ${formatNumber(v.crashedKept)} (not ranked)`;
  return `${formatNumber(v.survived)} of ${formatNumber(v.expected)} survived (not ranked)`;
}

function cellsOf(table: PeerTable): { header: string[]; body: string[][] } {
  const memory = table.workloads.find((w) => w.id === table.memoryWorkload);
  const cohort = table.lines.find((l) => l.key === 'cohort');
  const header = [
    'system',
    ...table.workloads.map((w) => w.label),
    `peak RSS increase, ${memory?.label ?? ''}`,
    "crashed children's writes",
  ];
  const body = table.lines.map((line) => [
    line.name,
    ...table.workloads.map((w) => timeText(line.cells[w.id], cohort?.cells[w.id], line)),
    memoryText(line),
    crashText(line),
  ]);
  return { header, body };
}

/** The comparison as an aligned text table (what `./pnpmw bench` prints). */
export function formatPeers(table: PeerTable): string {
  const { header, body } = cellsOf(table);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]): string =>
    cells
      .map((c, i) => c.padEnd(widths[i] ?? 0))
      .join('  ')
      .trimEnd();
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...body.map(line)].join('\n');
}

/** The comparison as a Markdown table (for docs/performance.md). */
export function formatPeersMarkdown(table: PeerTable): string {
  const { header, body } = cellsOf(table);
  const row = (cells: readonly string[]): string => `| ${cells.join(' | ')} |`;
  return [row(header), row(header.map(() => '---')), ...body.map(row)].join('\n');
}
