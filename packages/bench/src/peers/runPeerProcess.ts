/**
 * Runs one system on one workload in a process of its own (the entry is `peerProcessMain.ts`),
 * so that its peak resident memory is its own: nothing another system allocated, and nothing
 * of the benchmark's, is in it. A run that outlasts its time cap is killed, and reported as
 * capped with the memory it had reached.
 */
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { PeerKey } from './PeerSystem.ts';
import type { Verdict, Workload } from './Workload.ts';

/** What a peer's process writes on stdout, one JSON line each. */
export type PeerMessage =
  | { readonly type: 'ready'; readonly baselineRss: number }
  | { readonly type: 'done'; readonly ms: number; readonly baselineRss: number; readonly peakRss: number; readonly verdict: Verdict };

/** One run in a process of its own. */
export interface PeerProcessResult {
  /** The run's wall time in ms; the cap when `capped`. */
  readonly ms: number;
  readonly capped: boolean;
  /** Peak resident memory over the process's baseline (after loading, before the run), in MB; null when unknown. */
  readonly rssIncreaseMb: number | null;
  /** Null when the run was capped (nothing to check). */
  readonly verdict: Verdict | null;
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

/** Runs `key` on `w` in a new Node process; kills it `capMs` after the run started. */
export function runPeerProcess(key: PeerKey, w: Workload, capMs: number): Promise<PeerProcessResult> {
  const child = spawn(process.execPath, [...entryArgs(), key, JSON.stringify(w)], {
    cwd: fileURLToPath(new URL('../..', import.meta.url)),
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    let timer: ReturnType<typeof setTimeout> | undefined;
    let settled = false;
    const finish = (result: PeerProcessResult): void => {
      settled = true;
      clearTimeout(timer);
      resolve(result);
      child.kill('SIGKILL');
    };
    const onMessage = (message: PeerMessage): void => {
      if (message.type === 'ready') {
        timer = setTimeout(() => {
          const peak = child.pid === undefined ? null : highWaterOf(child.pid);
          finish({ ms: capMs, capped: true, rssIncreaseMb: peak === null ? null : mb(peak - message.baselineRss), verdict: null });
        }, capMs);
      } else {
        finish({ ms: message.ms, capped: false, rssIncreaseMb: mb(message.peakRss - message.baselineRss), verdict: message.verdict });
      }
    };
    child.stdout.setEncoding('utf8');
    child.stdout.on('data', (chunk: string) => {
      out += chunk;
      for (let nl = out.indexOf('\n'); nl >= 0; nl = out.indexOf('\n')) {
        const line = out.slice(0, nl);
        out = out.slice(nl + 1);
        if (!settled) onMessage(JSON.parse(line) as PeerMessage);
      }
    });
    child.on('error', reject);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      if (!settled) reject(new Error(`${key}'s process ended (${signal ?? `exit code ${code}`}) before reporting its run`));
    });
  });
}
