/**
 * Runs one system on workloads in a process of its own (the entry is `peerProcessMain.ts`):
 * for its time, so that nothing another system left in a process (LangChain's
 * AsyncLocalStorage, a heap another system grew, its JIT state) weighs on it; and for its peak
 * resident memory, so that nothing another system allocated, and nothing of the benchmark's,
 * is in it. A run that outlasts its time cap is killed, and reported as capped with the memory
 * it had reached.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { PeerKey } from './PeerSystem.ts';
import type { Verdict, Workload } from './Workload.ts';

/** What a peer's process is asked to do (its second argument, as JSON). */
export type PeerJob =
  /** Run `workload` once and report its peak memory. */
  | { readonly mode: 'memory'; readonly workload: Workload }
  /** Run each of `workloads` `warmup + reps` times, collecting garbage before each run, and report the last `reps` times. */
  | { readonly mode: 'time'; readonly workloads: readonly Workload[]; readonly warmup: number; readonly reps: number };

/** What a peer's process writes on stdout, one JSON line each. */
export type PeerMessage =
  | { readonly type: 'ready'; readonly name: string; readonly baselineRss: number }
  | { readonly type: 'done'; readonly ms: number; readonly baselineRss: number; readonly peakRss: number; readonly verdict: Verdict }
  | { readonly type: 'timed'; readonly workload: string; readonly samples: readonly number[]; readonly verdict: Verdict }
  | { readonly type: 'end' };

/** One run in a process of its own. */
export interface PeerProcessResult {
  /** The system's name, with its version. */
  readonly name: string;
  /** The run's wall time in ms; the cap when `capped`. */
  readonly ms: number;
  readonly capped: boolean;
  /** Peak resident memory over the process's baseline (after loading, before the run), in MB; null when unknown. */
  readonly rssIncreaseMb: number | null;
  /** Null when the run was capped (nothing to check). */
  readonly verdict: Verdict | null;
}

/** A system's times on workloads, from one process of its own. */
export interface PeerTimes {
  readonly name: string;
  /** By workload id: the measured runs' times in ms, and the first failed verdict of all its runs, else the last. */
  readonly byWorkload: ReadonlyMap<string, { readonly samples: readonly number[]; readonly verdict: Verdict }>;
}

/**
 * How to start the entry: the bundle `./pnpmw bench` builds beside its own (it passes its path
 * in `COHORT_BENCH_PEER_ENTRY`), or else the TypeScript source through tsx (under vitest).
 */
function entryArgs(): readonly string[] {
  const bundled = process.env['COHORT_BENCH_PEER_ENTRY'];
  if (bundled) return [bundled];
  return ['--import', 'tsx', fileURLToPath(new URL('./peerProcessMain.ts', import.meta.url))];
}

/** The peak resident memory of a live process, in bytes (Linux; null elsewhere). */
function highWaterOf(pid: number): number | null {
  try {
    const kb = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb === undefined ? null : Number(kb) * 1024;
  } catch {
    return null;
  }
}

const mb = (bytes: number): number => bytes / 1e6;

/**
 * Starts `key`'s process on `job` and hands every message to `handle` until it returns a
 * result; `capMs` after the process reported ready, `onCap` gives the result instead (or
 * throws). The process is killed once there is a result.
 */
function peerProcess<T>(
  key: PeerKey,
  job: PeerJob,
  capMs: number,
  handle: (message: PeerMessage) => T | undefined,
  onCap: (pid: number | undefined) => T,
): Promise<T> {
  const child = spawn(process.execPath, [...entryArgs(), key, JSON.stringify(job)], {
    cwd: fileURLToPath(new URL('../..', import.meta.url)),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    let timer: ReturnType<typeof setTimeout> | undefined;
    let settled = false;
    const finish = (result: () => T): void => {
      settled = true;
      clearTimeout(timer);
      try {
        resolve(result());
      } catch (error) {
        reject(error);
      }
      child.kill('SIGKILL');
    };
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      out += chunk;
      for (let nl = out.indexOf('\n'); nl >= 0 && !settled; nl = out.indexOf('\n')) {
        const message = JSON.parse(out.slice(0, nl)) as PeerMessage;
        out = out.slice(nl + 1);
        if (message.type === 'ready') timer = setTimeout(() => finish(() => onCap(child.pid)), capMs);
        const result = handle(message);
        if (result !== undefined) finish(() => result);
      }
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (!settled) reject(new Error(`${key}'s process ended (${signal ?? `exit code ${code}`}) before reporting its runs`));
    });
  });
}

/** Runs `key` on `w` once in a new Node process for its peak memory; kills it `capMs` after the run started. */
export function runPeerProcess(key: PeerKey, w: Workload, capMs: number): Promise<PeerProcessResult> {
  let name: string = key;
  let baselineRss = 0;
  return peerProcess<PeerProcessResult>(
    key,
    { mode: 'memory', workload: w },
    capMs,
    (message) => {
      if (message.type === 'ready') ({ name, baselineRss } = message);
      if (message.type !== 'done') return undefined;
      return { name, ms: message.ms, capped: false, rssIncreaseMb: mb(message.peakRss - message.baselineRss), verdict: message.verdict };
    },
    (pid) => {
      const peak = pid === undefined ? null : highWaterOf(pid);
      return { name, ms: capMs, capped: true, rssIncreaseMb: peak === null ? null : mb(peak - baselineRss), verdict: null };
    },
  );
}

/** Times `key` on `workloads` in a new Node process (see {@link PeerJob}); fails if the process outlasts `capMs`. */
export function timePeerProcess(
  key: PeerKey,
  workloads: readonly Workload[],
  warmup: number,
  reps: number,
  capMs: number,
): Promise<PeerTimes> {
  let name: string = key;
  const byWorkload = new Map<string, { samples: readonly number[]; verdict: Verdict }>();
  return peerProcess<PeerTimes>(
    key,
    { mode: 'time', workloads, warmup, reps },
    capMs,
    (message) => {
      if (message.type === 'ready') name = message.name;
      if (message.type === 'timed') byWorkload.set(message.workload, { samples: message.samples, verdict: message.verdict });
      return message.type === 'end' ? { name, byWorkload } : undefined;
    },
    () => {
      throw new Error(`${name} did not finish its timed runs within ${capMs / 1000} s`);
    },
  );
}
