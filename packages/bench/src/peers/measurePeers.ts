/**
 * Runs the peer comparison, every system in processes of its own: for time, `rounds` processes
 * per system, started in turn (A B C D A B C D …, so that load on the machine weighs on all
 * alike), each running every workload `warmup + reps` times; then one process per system on the
 * memory workload, for its peak memory. A system too slow for a workload runs it only there,
 * once, under the time cap.
 */
import type { BenchOptions } from '../Scenario.ts';
import { medianFigure } from '../Scenario.ts';
import type { PeerCell, PeerLine, PeerMemory, PeerTable } from './PeerTable.ts';
import type { PeerKey } from './PeerSystem.ts';
import { PEER_KEYS } from './PeerSystem.ts';
import type { PeerTimes } from './runPeerProcess.ts';
import { runPeerProcess, timePeerProcess } from './runPeerProcess.ts';
import type { Verdict, Workload } from './Workload.ts';

/** What to measure. */
export interface PeerPlan {
  readonly workloads: readonly Workload[];
  /** The workload (one of `workloads`) each system runs in a process of its own, for its memory. */
  readonly memory: Workload;
  /** Systems whose time on `memory` is taken from that one capped run instead. */
  readonly slow: readonly PeerKey[];
  readonly capMs: number;
  /** Processes per system for time. */
  readonly rounds: number;
  /** Unmeasured and measured runs of each workload in each of those processes. */
  readonly warmup: number;
  readonly reps: number;
}

/** The first failed verdict, else the last. */
function worse(a: Verdict | null, b: Verdict): Verdict {
  return a && !a.ok ? a : b;
}

/** Each system's cells from its processes' times: every workload's samples pooled, its verdicts combined. */
function cellsOf(processes: readonly PeerTimes[], workloads: readonly Workload[]): Record<string, PeerCell> {
  const cells: Record<string, PeerCell> = {};
  for (const w of workloads) {
    const samples: number[] = [];
    let verdict: Verdict | null = null;
    for (const times of processes) {
      const timed = times.byWorkload.get(w.id);
      if (!timed) continue;
      samples.push(...timed.samples);
      verdict = worse(verdict, timed.verdict);
    }
    if (samples.length > 0) cells[w.id] = { time: medianFigure(samples, 'ms', w.label), capped: false, verdict };
  }
  return cells;
}

/** Measures `plan`; progress lines go to `options.log`. */
export async function measurePeers(options: BenchOptions, plan: PeerPlan): Promise<PeerTable> {
  const timed = new Map<PeerKey, PeerTimes[]>(PEER_KEYS.map((key) => [key, []]));
  const workloadsOf = (key: PeerKey): readonly Workload[] => plan.workloads.filter((w) => w !== plan.memory || !plan.slow.includes(key));
  const runsPerProcess = plan.workloads.length * (plan.warmup + plan.reps);
  const count = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;
  options.log(
    `  ${plan.workloads.map((w) => w.label).join('; ')}: ${count(plan.rounds, 'process', 'processes')} per system, ` +
      `each with ${count(plan.warmup, 'warm-up', 'warm-ups')} and ${count(plan.reps, 'timed run', 'timed runs')} per workload`,
  );
  for (let round = 0; round < plan.rounds; round++) {
    for (const key of PEER_KEYS) {
      const times = await timePeerProcess(key, workloadsOf(key), plan.warmup, plan.reps, plan.capMs * runsPerProcess);
      timed.get(key)?.push(times);
    }
  }
  const lines: PeerLine[] = [];
  for (const key of PEER_KEYS) {
    const slow = plan.slow.includes(key);
    options.log(`  ${plan.memory.label}, ${key} in a process of its own${slow ? `, capped at ${plan.capMs / 1000} s` : ''}`);
    const result = await runPeerProcess(key, plan.memory, plan.capMs);
    const memory: PeerMemory = { increaseMb: result.rssIncreaseMb, capped: result.capped, verdict: result.verdict };
    const cells = cellsOf(timed.get(key) ?? [], plan.workloads);
    if (slow) {
      const time = { value: result.ms, unit: 'ms', label: plan.memory.label, samples: [result.ms] } as const;
      cells[plan.memory.id] = { time, capped: result.capped, verdict: result.verdict };
    }
    lines.push({ key, name: result.name, cells, memory });
  }
  return { workloads: plan.workloads, memoryWorkload: plan.memory.id, capMs: plan.capMs, lines };
}
