/**
 * The entry of a peer's own process (`node peer.mjs <system> <job as JSON>`, see `PeerJob`):
 * loads the system, collects garbage and reports its resident memory as the baseline, then
 * runs its job, reporting as JSON lines on stdout. For memory, one run: its wall time, its peak
 * resident memory and what survived; the peak is the kernel's high-water mark when the run
 * raised it (it counts every page, between samples too), else the highest sample. For time,
 * every workload's measured runs and the verdict on what survived them.
 */
import { collectGarbage, interleave, RssSampler } from '../measure.ts';
import { peerSystem } from './peerSystems.ts';
import type { PeerSystem } from './PeerSystem.ts';
import type { PeerJob, PeerMessage } from './runPeerProcess.ts';
import type { Verdict, Workload } from './Workload.ts';
import { verify } from './Workload.ts';

function send(message: PeerMessage): void {
  process.stdout.write(`${JSON.stringify(message)}\n`);
}

/** The process's peak resident set size so far, in bytes (`maxRSS` is in KiB). */
function highWater(): number {
  return process.resourceUsage().maxRSS * 1024;
}

async function measureMemory(system: PeerSystem, w: Workload, baselineRss: number): Promise<void> {
  const before = highWater();
  const sampler = new RssSampler().start();
  const run = await system.run(w);
  const sampled = sampler.stop();
  const after = highWater();
  send({ type: 'done', ms: run.ms, baselineRss, peakRss: after > before ? after : sampled, verdict: verify(w, run.kept) });
}

async function measureTime(system: PeerSystem, workloads: readonly Workload[], warmup: number, reps: number): Promise<void> {
  for (const w of workloads) {
    let verdict = null as Verdict | null;
    const [samples = []] = await interleave(
      [
        async () => {
          const run = await system.run(w);
          // the first failed verdict, else the last
          if (verdict === null || verdict.ok) verdict = verify(w, run.kept);
          return run.ms;
        },
      ],
      { warmup, reps },
    );
    if (verdict) send({ type: 'timed', workload: w.id, samples, verdict });
  }
  send({ type: 'end' });
}

const [key = '', job = ''] = process.argv.slice(2);
const system = peerSystem(key);
const parsed = JSON.parse(job) as PeerJob;
collectGarbage();
const baselineRss = process.memoryUsage.rss();
send({ type: 'ready', name: system.name, baselineRss });
if (parsed.mode === 'memory') await measureMemory(system, parsed.workload, baselineRss);
else await measureTime(system, parsed.workloads, parsed.warmup, parsed.reps);
