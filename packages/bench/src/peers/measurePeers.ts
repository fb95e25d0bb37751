/**
 * Runs the peer comparison: every system on every workload in this process, alternating run by
 * run (so that load on the machine weighs on all alike), then each system on the memory
 * workload in a process of its own for its peak memory. A system too slow for a workload runs
 * it only there, once, under the time cap.
 */
import { interleave } from '../measure.ts';
import type { Run } from '../measure.ts';
import type { BenchOptions } from '../Scenario.ts';
import { medianFigure } from '../Scenario.ts';
import type { PeerCell, PeerLine, PeerMemory, PeerTable } from './PeerTable.ts';
import type { PeerKey, PeerSystem } from './PeerSystem.ts';
import { peerSystems } from './peerSystems.ts';
import { runPeerProcess } from './runPeerProcess.ts';
import type { Verdict, Workload } from './Workload.ts';
import { verify } from './Workload.ts';

/** What to measure. */
export interface PeerPlan {
  readonly workloads: readonly Workload[];
  /** The workload (one of `workloads`) each system runs in a process of its own, for its memory. */
  readonly memory: Workload;
  /** Systems whose time on `memory` is taken from that one capped run instead. */
  readonly slow: readonly PeerKey[];
  readonly capMs: number;
  readonly warmup: number;
  readonly reps: number;
}

type Cells = Map<PeerKey, Record<string, PeerCell>>;

/** The first failed verdict, else the last. */
function worse(a: Verdict | null, b: Verdict): Verdict {
  return a && !a.ok ? a : b;
}

async function timeInProcess(w: Workload, systems: readonly PeerSystem[], plan: PeerPlan, cells: Cells): Promise<void> {
  const verdicts = new Map<PeerKey, Verdict>();
  const runs: Run[] = systems.map((system) => async () => {
    const run = await system.run(w);
    verdicts.set(system.key, worse(verdicts.get(system.key) ?? null, verify(w, run.kept)));
    return run.ms;
  });
  const samples = await interleave(runs, { warmup: plan.warmup, reps: plan.reps });
  for (const [i, system] of systems.entries()) {
    const row = cells.get(system.key) ?? {};
    row[w.id] = { time: medianFigure(samples[i] ?? [], 'ms', w.label), capped: false, ownProcess: false, verdict: verdicts.get(system.key) ?? null };
    cells.set(system.key, row);
  }
}

/** Measures `plan`; progress lines go to `options.log`. */
export async function measurePeers(options: BenchOptions, plan: PeerPlan): Promise<PeerTable> {
  const cells: Cells = new Map();
  for (const w of plan.workloads) {
    const systems = peerSystems.filter((s) => w !== plan.memory || !plan.slow.includes(s.key));
    options.log(`  ${w.label}: ${systems.map((s) => s.name).join(', ')}; ${plan.reps} runs each`);
    await timeInProcess(w, systems, plan, cells);
  }
  const lines: PeerLine[] = [];
  for (const system of peerSystems) {
    options.log(`  ${plan.memory.label}, ${system.name} in a process of its own${plan.slow.includes(system.key) ? `, capped at ${plan.capMs / 1000} s` : ''}`);
    const result = await runPeerProcess(system.key, plan.memory, plan.capMs);
    const memory: PeerMemory = { increaseMb: result.rssIncreaseMb, capped: result.capped, verdict: result.verdict };
    const row = cells.get(system.key) ?? {};
    if (plan.slow.includes(system.key)) {
      const time = { value: result.ms, unit: 'ms', label: plan.memory.label, samples: [result.ms] } as const;
      row[plan.memory.id] = { time, capped: result.capped, ownProcess: true, verdict: result.verdict };
    }
    lines.push({ key: system.key, name: system.name, cells: row, memory });
  }
  return { workloads: plan.workloads, memoryWorkload: plan.memory.id, capMs: plan.capMs, lines };
}
