import { cpus, loadavg, totalmem } from 'node:os';
import { collectGarbage } from './measure.ts';
import type { PeerTable } from './peers/PeerTable.ts';
import type { BenchMode, BenchOptions, BenchRow, Scenario } from './Scenario.ts';
import { conflictCheck } from './scenarios/conflictCheck.ts';
import { durableMerges } from './scenarios/durableMerges.ts';
import { durableTrees } from './scenarios/durableTrees.ts';
import { fanOut } from './scenarios/fanOut.ts';
import { mergeThroughput } from './scenarios/mergeThroughput.ts';
import { pgDurableMerges } from './scenarios/pgDurableMerges.ts';
import { reopen } from './scenarios/reopen.ts';
import { soakScenario } from './scenarios/soak.ts';
import { spawnIsolation } from './scenarios/spawnIsolation.ts';
import { tracingOverhead } from './scenarios/tracingOverhead.ts';

/** Every scenario, in the order they run. */
export const scenarios: readonly Scenario[] = [
  fanOut,
  spawnIsolation,
  mergeThroughput,
  durableMerges,
  reopen,
  conflictCheck,
  pgDurableMerges,
  soakScenario,
  tracingOverhead,
  durableTrees,
];

/** Where and how a run happened. */
export interface BenchMachine {
  readonly node: string;
  readonly platform: string;
  readonly cpus: number;
  readonly cpuModel: string;
  readonly memoryGb: number;
  /** The 1-minute load average when the run ended: how busy the (shared) machine was. */
  readonly loadAverage: number;
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
  /** The peer comparison (scenario 2), when it ran. */
  readonly peers: PeerTable | null;
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
    loadAverage: loadavg()[0] ?? 0,
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
  let peers: PeerTable | null = null;
  for (const scenario of only) {
    collectGarbage();
    const report = await scenario.run(options);
    rows.push(...report.rows);
    peers = report.peers ?? peers;
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
    peers,
  };
}
