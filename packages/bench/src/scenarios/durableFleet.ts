/**
 * The worker processes of scenario 10 on a system database and a store schema of their own:
 * start one (and wait until it serves), start a run of the tree on it, SIGKILL it, watch the
 * lines they print, read a run's status from DBOS's table; everything killed and dropped at
 * the end.
 */
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { childLines, startChild } from '../children.ts';
import type { ChildLine } from '../children.ts';
import { now } from '../measure.ts';
import type { DurableWorkerOptions } from './durableWorkerMain.ts';
import { PG_URL, sql } from './pgMerges.ts';

/** One worker process. */
export interface DurableWorker {
  /** The first line of `type` that arrived after `since` (a `now()` time). */
  next(type: string, since?: number): Promise<ChildLine>;
  /** Starts run `id` of the tree of `children` here; resolves with its time in ms, as the worker measured it. */
  run(id: string, children: number): Promise<number>;
  kill(): Promise<void>;
}

/** What every worker of the fleet is opened with, beyond its databases and id. */
export type FleetSettings = Omit<DurableWorkerOptions, 'storeUrl' | 'storeSchema' | 'systemDatabaseUrl' | 'executorId'>;

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
    const proc = startChild('COHORT_BENCH_DURABLE_ENTRY', 'durableWorkerMain.ts', options);
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

/** A worker on `proc`, reading its JSON lines as they come. */
function watch(proc: ChildProcessWithoutNullStreams, executorId: string): DurableWorker {
  const { next } = childLines(proc, `durable trees: worker ${executorId}`);
  return {
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
