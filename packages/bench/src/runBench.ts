import { cpus, totalmem } from 'node:os';
import { collectGarbage } from './measure.ts';
import type { BenchMode, BenchOptions, BenchRow, Scenario } from './Scenario.ts';
import { conflictCheck } from './scenarios/conflictCheck.ts';
import { durableMerges } from './scenarios/durableMerges.ts';
import { fanOut } from './scenarios/fanOut.ts';
import { mergeThroughput } from './scenarios/mergeThroughput.ts';
import { reopen } from './scenarios/reopen.ts';
import { spawnIsolation } from './scenarios/spawnIsolation.ts';

/**
 * Every scenario of issue 6, in the order they run. Fan-out runs first: its peak-memory target
 * is about the process, and the books of the other scenarios would otherwise be in it.
 */
export const scenarios: readonly Scenario[] = [fanOut, spawnIsolation, mergeThroughput, durableMerges, reopen, conflictCheck];

/** Where and how a run happened. */
export interface BenchMachine {
  readonly node: string;
  readonly platform: string;
  readonly cpus: number;
  readonly cpuModel: string;
  readonly memoryGb: number;
}

/** What {@link runBench} returns (and the CLI writes to `bench-results.json`). */
export interface BenchResults {
  readonly format: 'cohort-bench/1';
  readonly mode: BenchMode;
  readonly startedAt: string;
  readonly seconds: number;
  readonly machine: BenchMachine;
  /** Peak resident set size of the whole run, in MB. */
  readonly peakRssMb: number;
  readonly rows: readonly BenchRow[];
}

/** The machine this process runs on. */
export function describeMachine(): BenchMachine {
  const list = cpus();
  return {
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    cpus: list.length,
    cpuModel: list[0]?.model.trim() ?? 'unknown',
    memoryGb: Math.round(totalmem() / 1e9),
  };
}

/**
 * Runs the scenarios (default: all of them) one after another in this process, each Cohort
 * measurement side by side with its baseline, and collects their rows.
 *
 * @example
 * const results = await runBench({ mode: 'quick', log: console.error });
 * results.rows.filter((r) => r.met === false); // the targets missed
 */
export async function runBench(options: BenchOptions, only: readonly Scenario[] = scenarios): Promise<BenchResults> {
  const started = Date.now();
  const rows: BenchRow[] = [];
  for (const scenario of only) {
    collectGarbage();
    rows.push(...(await scenario.run(options)));
  }
  return {
    format: 'cohort-bench/1',
    mode: options.mode,
    startedAt: new Date(started).toISOString(),
    seconds: (Date.now() - started) / 1000,
    machine: describeMachine(),
    // maxRSS is in KiB; MB (10^6 bytes) as every other memory figure here
    peakRssMb: (process.resourceUsage().maxRSS * 1024) / 1e6,
    rows,
  };
}
