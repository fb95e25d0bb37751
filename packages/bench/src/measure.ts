/**
 * Timing and memory helpers for the benchmarks: wall-clock samples, medians, interleaved
 * runs (so that drift and noisy neighbours weigh on Cohort and its baseline alike), a full
 * garbage collection between runs, and a resident-memory sampler.
 */
import { runInNewContext } from 'node:vm';
import { setFlagsFromString } from 'node:v8';

/** The median of `values` (the mean of the middle two for an even count); `NaN` when empty. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? (sorted[mid] ?? Number.NaN) : ((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2;
}

/** Milliseconds since an arbitrary origin (`performance.now()`). */
export function now(): number {
  return performance.now();
}

/** The wall time of `fn`, in milliseconds. */
export async function timeIt(fn: () => unknown): Promise<number> {
  const t0 = now();
  await fn();
  return now() - t0;
}

let gcFn: (() => void) | null | undefined;

/**
 * Runs a full garbage collection when the engine allows it (it is switched on here if the
 * process was not started with `--expose-gc`), so that one run's garbage is not collected
 * during the next one. Does nothing where that is impossible.
 */
export function collectGarbage(): void {
  if (gcFn === undefined) {
    try {
      setFlagsFromString('--expose-gc');
      gcFn = runInNewContext('gc') as () => void;
    } catch {
      gcFn = null;
    }
  }
  gcFn?.();
}

/** One measured run: returns its own measured time in ms (setup it did before the clock started is excluded). */
export type Run = () => Promise<number>;

/** Options for {@link interleave}. */
export interface InterleaveOptions {
  /** Unmeasured runs of each side first. */
  readonly warmup: number;
  /** Measured runs of each side. */
  readonly reps: number;
  /** Collect garbage before each run (for runs that allocate a lot). Default true. */
  readonly gc?: boolean;
}

/**
 * Runs each of `runs` `warmup + reps` times, alternating between them (A B C A B C …), and
 * returns each one's measured samples. Side-by-side alternation is what makes ratios stable
 * on a shared machine: a slow patch hits every side, not one of them.
 */
export async function interleave(runs: readonly Run[], options: InterleaveOptions): Promise<number[][]> {
  const samples = runs.map((): number[] => []);
  for (let i = 0; i < options.warmup + options.reps; i++) {
    for (const [k, run] of runs.entries()) {
      if (options.gc ?? true) collectGarbage();
      const ms = await run();
      if (i >= options.warmup) samples[k]?.push(ms);
    }
  }
  return samples;
}

/**
 * Samples the resident set size: on a timer, and whenever `poke()` is called from a busy
 * loop (a timer cannot fire while synchronous work or a chain of microtasks runs).
 */
export class RssSampler {
  private peakBytes = 0;
  private timer: ReturnType<typeof setInterval> | null = null;
  private pokes = 0;

  /** Starts sampling every `ms` milliseconds. */
  start(ms = 5): this {
    this.peakBytes = process.memoryUsage.rss();
    this.timer = setInterval(() => this.sample(), ms);
    this.timer.unref();
    return this;
  }

  /** Samples now, every `every`-th call (reading the RSS costs a system call). */
  poke(every = 256): void {
    if (++this.pokes % every === 0) this.sample();
  }

  /** Stops and returns the peak, in bytes. */
  stop(): number {
    this.sample();
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    return this.peakBytes;
  }

  private sample(): void {
    const rss = process.memoryUsage.rss();
    if (rss > this.peakBytes) this.peakBytes = rss;
  }
}

/** A small deterministic PRNG (mulberry32), so every run makes the same choices. */
export function random(seed: number): () => number {
  let s = seed | 0;
  return () => {
    s = (s + 0x6d2b79f5) | 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
