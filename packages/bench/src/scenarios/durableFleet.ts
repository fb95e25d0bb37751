/**
 * The worker processes of scenario 10 on a system database and a store schema of their own:
 * start one (and wait until it serves), start a run of the tree on it, SIGKILL it, watch the
 * lines they print, read a run's status from DBOS's table; everything killed and dropped at
 * the end.
 */
import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { now } from '../measure.ts';
import type { DurableWorkerOptions } from './durableWorkerMain.ts';
import { PG_URL, sql } from './pgMerges.ts';

/** A line a worker printed, with when it arrived here (`now()`). */
export interface WorkerLine {
  readonly type: string;
  readonly at: number;
  readonly [key: string]: unknown;
}

/** One worker process. */
export interface DurableWorker {
  readonly executorId: string;
  readonly lines: readonly WorkerLine[];
  /** The first line of `type` that arrived after `since` (a `now()` time). */
  next(type: string, since?: number): Promise<WorkerLine>;
  /** Starts run `id` of the tree of `children` here; resolves with its time in ms, as the worker measured it. */
  run(id: string, children: number): Promise<number>;
  kill(): Promise<void>;
}

/** What every worker of the fleet is opened with, beyond its databases and id. */
export type FleetSettings = Omit<DurableWorkerOptions, 'storeUrl' | 'storeSchema' | 'systemDatabaseUrl' | 'executorId'>;

/** How to start a worker process: the bundle `./pnpmw bench` builds, or the source through tsx. */
function entryArgs(): readonly string[] {
  const bundled = process.env['COHORT_BENCH_DURABLE_ENTRY'];
  if (bundled) return [bundled];
  return ['--import', 'tsx', fileURLToPath(new URL('./durableWorkerMain.ts', import.meta.url))];
}

/** The durable workers of one scenario run. */
export class DurableFleet {
  private readonly name = `bench_durable_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
  private readonly systemDatabaseUrl = Object.assign(new URL(PG_URL), { pathname: `/${this.name}` }).toString();
  private readonly workers: DurableWorker[] = [];

  constructor(private readonly settings: FleetSettings) {}

  /** Starts worker `executorId` and resolves once it serves the queues. */
  async start(executorId: string): Promise<DurableWorker> {
    const options: DurableWorkerOptions = {
      storeUrl: PG_URL,
      storeSchema: this.name,
      systemDatabaseUrl: this.systemDatabaseUrl,
      executorId,
      ...this.settings,
    };
    const proc = spawn(process.execPath, [...entryArgs(), JSON.stringify(options)], {
      cwd: fileURLToPath(new URL('../..', import.meta.url)),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const worker = watch(proc, executorId);
    this.workers.push(worker);
    await worker.next('ready');
    return worker;
  }

  /** The DBOS status of run `id` (or unit `id`), or null when none is recorded. */
  async status(id: string): Promise<string | null> {
    const { rows } = await sql(`SELECT status FROM dbos.workflow_status WHERE workflow_uuid = '${id}'`, this.systemDatabaseUrl);
    return (rows[0] as { status?: string } | undefined)?.status ?? null;
  }

  /** How many child units of run `id` have recorded their outcome. */
  async recordedChildren(id: string): Promise<number> {
    const { rows } = await sql(
      `SELECT count(*)::int AS n FROM dbos.workflow_status WHERE workflow_uuid LIKE '${id}/%' AND status = 'SUCCESS'`,
      this.systemDatabaseUrl,
    );
    return (rows[0] as { n: number }).n;
  }

  /** Waits until `probe` holds, checking every 20 ms, for at most `timeoutMs`. */
  async until(what: string, probe: () => Promise<boolean>, timeoutMs = 120_000): Promise<void> {
    for (const end = now() + timeoutMs; !(await probe()); await new Promise((r) => setTimeout(r, 20))) {
      if (now() > end) throw new Error(`durable trees: ${what} did not happen within ${timeoutMs / 1000} s`);
    }
  }

  /** Kills every worker and drops the databases. */
  async close(): Promise<void> {
    await Promise.all(this.workers.map((w) => w.kill()));
    await sql(`DROP DATABASE IF EXISTS "${this.name}" WITH (FORCE)`).catch(() => undefined);
    await sql(`DROP SCHEMA IF EXISTS "${this.name}" CASCADE`).catch(() => undefined);
  }
}

/** Reads a worker's JSON lines as they come. */
function watch(proc: ChildProcessWithoutNullStreams, executorId: string): DurableWorker {
  const lines: WorkerLine[] = [];
  const waiters = new Set<() => void>();
  let pending = '';
  let errors = '';
  proc.stdout.on('data', (chunk: Buffer) => {
    pending += chunk.toString();
    for (let nl = pending.indexOf('\n'); nl >= 0; nl = pending.indexOf('\n')) {
      const text = pending.slice(0, nl);
      pending = pending.slice(nl + 1);
      if (text.startsWith('{')) lines.push({ ...(JSON.parse(text) as { type: string }), at: now() });
    }
    for (const w of waiters) w();
  });
  proc.stderr.on('data', (chunk: Buffer) => void (errors = (errors + chunk.toString()).slice(-4_000)));
  proc.on('exit', () => {
    for (const w of waiters) w();
  });
  const next = (type: string, since = -1): Promise<WorkerLine> =>
    new Promise((resolve, reject) => {
      const check = (): void => {
        const found = lines.find((l) => l.type === type && l.at > since);
        if (found) resolve(found);
        else if (proc.exitCode !== null || proc.signalCode !== null) {
          reject(new Error(`durable trees: worker ${executorId} exited before printing ${type}:\n${errors}`));
        } else return;
        waiters.delete(check);
      };
      waiters.add(check);
      check();
    });
  return {
    executorId,
    lines,
    next,
    async run(id, children) {
      const since = now();
      proc.stdin.write(`${JSON.stringify({ type: 'run', id, children })}\n`);
      // one run at a time per worker: the next done line is this run's
      const done = await next('done', since);
      if (done['id'] !== id || done['committed'] !== children) {
        throw new Error(`durable trees: run ${id} ended with ${JSON.stringify(done)}, not ${children} children committed`);
      }
      return done['ms'] as number;
    },
    async kill() {
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      const exited = new Promise((resolve) => proc.once('exit', resolve));
      proc.kill('SIGKILL');
      await exited;
    },
  };
}
