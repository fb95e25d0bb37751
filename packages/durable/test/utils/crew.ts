import type { SessionOutcome } from '@cohort/runtime';
import type { Fleet } from './fleet.ts';
import type { WorkerOptions } from './worker.ts';
import type { WorkerProcess } from './workers.ts';

/** One SIGKILL of the kill rounds: which worker, when (epoch ms, and ms since the crew started), during which run. */
export interface Kill {
  readonly executor: string;
  readonly at: number;
  readonly sinceStartMs: number;
  readonly during: string;
}

const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
/** Whether `w` still runs (a process ended by a signal has no exit code). */
const alive = (w: WorkerProcess): boolean => w.proc.exitCode === null && w.proc.signalCode === null;

/**
 * A fixed set of worker processes, by executor id, that the test kills: a worker it kills is
 * started again, with the same executor id, as soon as it has ended (DBOS resumes what it was
 * running), and may be killed again before it is ready (in its recovery). A run is asked of any
 * ready worker — of another one when the worker asked dies first (a run is idempotent by its
 * id, so asking again gets the same run's outcome).
 */
export class Crew {
  private readonly current: WorkerProcess[] = [];
  private readonly ready = new WeakSet<WorkerProcess>();
  /** The processes this crew killed: only those are started again (not those the fleet ends at teardown). */
  private readonly killed = new WeakSet<WorkerProcess>();
  readonly kills: Kill[] = [];
  private readonly startedAt = Date.now();
  /** The run under way, named in each kill. */
  during = 'none';

  constructor(
    private readonly fleet: Fleet,
    readonly executors: readonly string[],
    private readonly more: Partial<WorkerOptions>,
  ) {}

  /** Starts every worker (the first alone: it makes the system database) and waits until each is ready. */
  async start(): Promise<void> {
    this.launch(0);
    await this.allReady();
    for (let i = 1; i < this.executors.length; i++) this.launch(i);
    await this.allReady();
  }

  private launch(i: number): void {
    const w = this.fleet.start(this.fleet.options(this.executors[i] ?? '', this.more));
    // a write to a worker killed meanwhile fails with EPIPE: the run is asked again elsewhere
    w.proc.stdin.on('error', () => undefined);
    w.proc.once('exit', () => {
      if (this.killed.has(w)) this.launch(i);
    });
    this.current[i] = w;
    void (async () => {
      while (alive(w) && !w.lines.some((l) => l['t'] === 'ready')) await sleep(50);
      if (alive(w)) this.ready.add(w);
    })();
  }

  /** Resolves once every worker is ready (throws after `timeoutMs`, with their output). */
  async allReady(timeoutMs = 60_000): Promise<void> {
    for (const end = Date.now() + timeoutMs; Date.now() < end; await sleep(50)) {
      if (this.current.every((w) => this.ready.has(w))) return;
    }
    throw new Error(`workers not ready in ${timeoutMs} ms:\n${this.outputs()}`);
  }

  /** SIGKILLs worker `i` now (ready or still starting); it is started again once it has ended. */
  kill(i: number): void {
    const w = this.current[i];
    if (!w) throw new Error(`no worker ${i}`);
    const at = Date.now();
    const state = this.ready.has(w) ? '' : ', starting';
    this.kills.push({ executor: this.executors[i] ?? '', at, sinceStartMs: at - this.startedAt, during: `${this.during}${state}` });
    this.ready.delete(w);
    this.killed.add(w);
    w.proc.kill('SIGKILL');
  }

  /**
   * Kills a worker at random moments until stopped: waits a gap drawn from `gapMs`, then kills
   * the worker drawn, round after round, whether or not the one killed before is back. `random`
   * is the seeded source of both draws. `stop` resolves once every worker is ready again.
   */
  killer(random: () => number, gapMs: readonly [number, number]): { stop(): Promise<void> } {
    let stopped = false;
    let wake = (): void => undefined;
    const rounds = (async () => {
      for (;;) {
        const gap = gapMs[0] + random() * (gapMs[1] - gapMs[0]);
        await new Promise<void>((resolve) => {
          wake = resolve;
          setTimeout(resolve, gap);
        });
        if (stopped) return;
        this.kill(Math.floor(random() * this.executors.length));
      }
    })();
    return {
      stop: async () => {
        stopped = true;
        wake();
        await rounds;
        await this.allReady();
      },
    };
  }

  private outputs(): string {
    return this.current.map((w, i) => `--- ${this.executors[i]}\n${w.output().slice(-4000)}`).join('\n');
  }

  /**
   * Runs body `body` as run `id` and returns its outcome: asks worker `first`, and when the
   * worker asked dies before printing the outcome, asks the next live one.
   */
  async run<O>(id: string, body: string, input: unknown, first: number, timeoutMs = 150_000): Promise<SessionOutcome<O>> {
    const end = Date.now() + timeoutMs;
    for (let k = first; Date.now() < end; k++) {
      const w = this.current[k % this.executors.length];
      if (!w || !this.ready.has(w) || !alive(w)) {
        await sleep(100);
        continue;
      }
      w.proc.stdin.write(`${JSON.stringify({ t: 'run', id, body, input })}\n`);
      for (;;) {
        const said = w.lines.find((l) => l['id'] === id && (l['t'] === 'outcome' || l['t'] === 'error'));
        if (said?.['t'] === 'outcome') return said['outcome'] as SessionOutcome<O>;
        if (said) throw new Error(`worker ${this.executors[k % this.executors.length]} could not run ${id}: ${String(said['message'])}`);
        if (!alive(w) || Date.now() > end) break;
        await sleep(50);
      }
    }
    throw new Error(`run ${id} did not finish in ${timeoutMs} ms\n${this.outputs()}`);
  }
}
