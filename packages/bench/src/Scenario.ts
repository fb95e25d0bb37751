/**
 * What a benchmark scenario is and what it reports: rows of the table, each Cohort's figure
 * beside its baseline's, the ratio between them and whether the issue's target is met.
 */
import { median } from './measure.ts';
import type { PeerTable } from './peers/PeerTable.ts';

/**
 * How big and how long: `full` (the issue's sizes), `quick` (`--quick`: smaller sizes, fewer
 * repetitions, under a minute) or `smoke` (tiny: proves the harness runs, measures nothing).
 */
export type BenchMode = 'full' | 'quick' | 'smoke';

/** Picks the setting for a mode. */
export function byMode<T>(mode: BenchMode, settings: { readonly full: T; readonly quick: T; readonly smoke: T }): T {
  return settings[mode];
}

/** What a scenario runs with. */
export interface BenchOptions {
  readonly mode: BenchMode;
  /** Progress lines for people (the CLI prints them to stderr). */
  readonly log: (line: string) => void;
}

/** One measured quantity: the median of its samples, in `unit`. */
export interface Figure {
  readonly value: number;
  readonly unit: 'ms' | 's' | 'µs/op' | 'MB' | 'KB' | 'commits/s' | 'merges/s';
  /** What was measured, when the unit does not say it (`1k skills`, `xstate floor`). */
  readonly label?: string;
  /** Every sample, in `unit`, for the JSON results. */
  readonly samples?: readonly number[];
}

/** How a row's ratio is read against its target. */
export type Target =
  | { readonly kind: 'at-most'; readonly value: number; readonly text: string }
  | { readonly kind: 'at-least'; readonly value: number; readonly text: string }
  | { readonly kind: 'info'; readonly text: string };

/** One line of the table. `ratio` is what the target is checked against (null: none). */
export interface BenchRow {
  /** Scenario number and letter, e.g. `1a`. */
  readonly id: string;
  readonly scenario: string;
  readonly cohort: Figure;
  readonly baseline: Figure | null;
  /** The number compared with the target (a ratio, or Cohort's own figure for absolute targets). */
  readonly ratio: number | null;
  /** How the ratio reads, e.g. `1.12×` or `2.41 s`. */
  readonly ratioText: string;
  readonly target: Target;
  /** `null` for information-only rows, and for rows not ranked (`unranked`). */
  readonly met: boolean | null;
  /** Why the row is not ranked: the system compared with failed its check (it kept a crashed child's writes). */
  readonly unranked?: string;
  /** Sizes and settings that produced the row. */
  readonly detail?: Readonly<Record<string, unknown>>;
}

/** What a scenario reports: its rows, and the peer comparison for the scenario that makes it. */
export interface ScenarioReport {
  readonly rows: readonly BenchRow[];
  readonly peers?: PeerTable;
}

/** A benchmark scenario: runs Cohort and its baselines side by side and reports rows. */
export interface Scenario {
  readonly id: string;
  readonly name: string;
  /** Runs only when asked for by id (`--only`): it takes too long for every run. */
  readonly onlyWhenAsked?: boolean;
  run(options: BenchOptions): Promise<ScenarioReport>;
}

/** The figure of `samples` (in `unit`): their median. */
export function medianFigure(samples: readonly number[], unit: Figure['unit'], label: string): Figure {
  return { value: median(samples), unit, label, samples };
}

/** The rate of `count` events per run, from each run's time in ms: the median run's rate. */
export function rateFigure(runMs: readonly number[], count: number, unit: 'commits/s' | 'merges/s', label: string): Figure {
  return { value: (count * 1000) / median(runMs), unit, label, samples: runMs.map((ms) => (count * 1000) / ms) };
}

/** Whether `value` meets `target`. */
export function meets(target: Target, value: number | null): boolean | null {
  if (target.kind === 'info' || value === null || !Number.isFinite(value)) return target.kind === 'info' ? null : false;
  return target.kind === 'at-most' ? value <= target.value : value >= target.value;
}

/** A row comparing two figures through `ratio` (Cohort's over the baseline's, or the reverse for "faster" targets), checked against `target`. */
export function ratioRow(
  id: string,
  scenario: string,
  cohort: Figure,
  baseline: Figure | null,
  ratio: number,
  target: Target,
  detail?: Readonly<Record<string, unknown>>,
): BenchRow {
  return {
    id,
    scenario,
    cohort,
    baseline,
    ratio,
    ratioText: `${formatNumber(ratio)}×`,
    target,
    met: meets(target, ratio),
    ...(detail ? { detail } : {}),
  };
}

/** A row that compares nothing because `reason` (a system failed its check): shown as not ranked. */
export function unrankedRow(
  id: string,
  scenario: string,
  cohort: Figure,
  baseline: Figure | null,
  target: Target,
  reason: string,
): BenchRow {
  return { id, scenario, cohort, baseline, ratio: null, ratioText: '—', target, met: null, unranked: reason };
}

/** A row whose target is on Cohort's own figure (`< 3 s`, `< 300 MB`). */
export function absoluteRow(
  id: string,
  scenario: string,
  cohort: Figure,
  target: Target,
  detail?: Readonly<Record<string, unknown>>,
): BenchRow {
  // a ratio row of Cohort's figure against nothing: the figure itself is what the target checks
  return { ...ratioRow(id, scenario, cohort, null, cohort.value, target, detail), ratioText: '—' };
}

/** Three significant digits, without exponent notation for everyday magnitudes. */
export function formatNumber(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  const abs = Math.abs(n);
  if (abs >= 100) return Math.round(n).toLocaleString('en-US');
  if (abs >= 10) return n.toFixed(1);
  if (abs >= 1) return n.toFixed(2);
  return n.toPrecision(2);
}

/** A figure as text: `1.23 ms`, `4,210 commits/s`. */
export function formatFigure(f: Figure | null): string {
  if (!f) return '—';
  return `${formatNumber(f.value)} ${f.unit}${f.label ? ` (${f.label})` : ''}`;
}
