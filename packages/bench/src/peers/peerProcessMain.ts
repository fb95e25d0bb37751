/**
 * The entry of a peer's own process (`node peer.mjs <system> <workload as JSON>`): loads the
 * systems, collects garbage, reports its resident memory as the baseline, runs the workload
 * once, and reports the run's wall time, its peak resident memory and what survived, as JSON
 * lines on stdout. The peak is the kernel's high-water mark when the run raised it (it counts
 * every page, between samples too), else the highest sample.
 */
import { collectGarbage, RssSampler } from '../measure.ts';
import { peerSystem } from './peerSystems.ts';
import type { PeerMessage } from './runPeerProcess.ts';
import type { Workload } from './Workload.ts';
import { verify } from './Workload.ts';

function send(message: PeerMessage): void {
  process.stdout.write(`${JSON.stringify(message)}\n`);
}

/** The process's peak resident set size so far, in bytes (`maxRSS` is in KiB). */
function highWater(): number {
  return process.resourceUsage().maxRSS * 1024;
}

const [key = '', workload = ''] = process.argv.slice(2);
const system = peerSystem(key);
const w = JSON.parse(workload) as Workload;
collectGarbage();
const baselineRss = process.memoryUsage.rss();
const before = highWater();
const sampler = new RssSampler().start();
send({ type: 'ready', baselineRss });
const run = await system.run(w);
const sampled = sampler.stop();
const after = highWater();
send({ type: 'done', ms: run.ms, baselineRss, peakRss: after > before ? after : sampled, verdict: verify(w, run.kept) });
