/**
 * The peer comparison's results: for every system, its time on each workload and its peak
 * memory on one of them, each with the verdict on what survived. A system that kept a crashed
 * child's writes, or lost others, is marked and not ranked.
 */
import type { Figure } from '../Scenario.ts';
import type { PeerKey } from './PeerSystem.ts';
import type { Verdict, Workload } from './Workload.ts';

/** One system on one workload. */
export interface PeerCell {
  /** Median wall time of its runs, each system in processes of its own, in ms; or the one capped run's. */
  readonly time: Figure;
  /** Killed at the time cap: `time` is the cap, a lower bound. */
  readonly capped: boolean;
  /** The first failed verdict of its runs, else the last; null when nothing could be checked (capped). */
  readonly verdict: Verdict | null;
}

/** One system's peak memory on the memory workload, in a process of its own. */
export interface PeerMemory {
  /** Peak resident memory over the process's baseline, in MB (null where it cannot be read). */
  readonly increaseMb: number | null;
  /** Killed at the time cap: the increase it had reached by then, a lower bound. */
  readonly capped: boolean;
  readonly verdict: Verdict | null;
}

/** One system's line of the table. */
export interface PeerLine {
  readonly key: PeerKey;
  readonly name: string;
  /** By workload id. */
  readonly cells: Readonly<Record<string, PeerCell>>;
  readonly memory: PeerMemory;
}

/** The whole comparison (in `bench-results.json` as `peers`). */
export interface PeerTable {
  readonly workloads: readonly Workload[];
  /** Id of the workload whose peak memory each system's own process measured. */
  readonly memoryWorkload: string;
  /** The time cap of a run in a process of its own, in ms. */
  readonly capMs: number;
  readonly lines: readonly PeerLine[];
}

/** Whether every check of `line` passed (a capped run, not checked, does not count against it). */
export function ranked(line: PeerLine): boolean {
  return [...Object.values(line.cells).map((c) => c.verdict), line.memory.verdict].every((v) => v === null || v.ok);
}

/** The first failed verdict of `line`, else one that passed, else null (nothing checked). */
export function worstVerdict(line: PeerLine): Verdict | null {
  const verdicts = [...Object.values(line.cells).map((c) => c.verdict), line.memory.verdict];
  return verdicts.find((v) => v !== null && !v.ok) ?? verdicts.find((v) => v !== null) ?? null;
}
