import pkg from '@dbos-inc/dbos-sdk';
import pg from 'pg';
import { DurableError } from './DurableError.ts';
import { JOURNAL_SCHEMA, WORKERS_TABLE } from './internal/Journal.ts';

const { DBOSClient } = pkg;

/** One durable run, as its root's workflow records it. */
export interface DurableRunSummary {
  readonly id: string;
  /** The registered body of its root. */
  readonly body: string;
  /** DBOS's status: `PENDING` (running or waiting for a worker), `SUCCESS`, `ERROR`, `CANCELLED`, … */
  readonly status: string;
  /** The worker running it now, or the last one that did. */
  readonly executor: string | null;
  readonly applicationVersion: string | null;
  /** When it was started and last changed (ISO). */
  readonly createdAt: string;
  readonly updatedAt: string | null;
  /** How its root ended, once it did: `committed`, or the failure's kind. */
  readonly outcome: string | null;
}

/** One unit of a run (its root or a child unit): where it ran, and every start of it. */
export interface DurableUnitView {
  readonly id: string;
  /** The unit that spawned it, or null for the run's root. */
  readonly parent: string | null;
  readonly body: string;
  readonly name: string | null;
  readonly status: string;
  readonly executor: string | null;
  /** Each start of the unit, first first: more than one means it was resumed (a crash, a takeover). */
  readonly starts: readonly { readonly executor: string; readonly at: string }[];
  readonly outcome: string | null;
}

/** A run with its units, and the workers of the system database. */
export interface DurableRunView extends DurableRunSummary {
  readonly units: readonly DurableUnitView[];
}

/** A worker of the system database: its last heartbeat, and who took over its work. */
export interface DurableWorkerView {
  readonly executor: string;
  readonly applicationVersion: string;
  readonly beatAt: string;
  readonly adoptedBy: string | null;
}

/** A read-only view of the durable runs of a system database (no worker is started). */
export interface DurableRuns {
  /** The newest runs first, at most `limit`. */
  list(limit?: number): Promise<DurableRunSummary[]>;
  /** Run `id` with its units, or null when there is none. */
  show(id: string): Promise<DurableRunView | null>;
  workers(): Promise<DurableWorkerView[]>;
  close(): Promise<void>;
}

/**
 * Opens the durable runs of the system database at `systemDatabaseUrl` for reading, through
 * DBOS's client (no worker is launched) and Cohort's own records. Throws a `DurableError`
 * with code `DURABLE_UNREACHABLE` when the database cannot be read.
 *
 * @example
 * const runs = await inspectRuns('postgres://127.0.0.1:5432/app_dbos');
 * for (const run of await runs.list()) console.log(run.id, run.status, run.executor);
 * await runs.close();
 */
export async function inspectRuns(systemDatabaseUrl: string): Promise<DurableRuns> {
  const pool = new pg.Pool({ connectionString: systemDatabaseUrl, max: 2, application_name: 'cohort runs' });
  pool.on('error', () => undefined);
  try {
    await pool.query(`SELECT 1 FROM dbos.workflow_status LIMIT 0`);
  } catch (err) {
    await pool.end();
    const why = err instanceof Error ? err.message : String(err);
    throw new DurableError('DURABLE_UNREACHABLE', `the durable runs of ${redacted(systemDatabaseUrl)} cannot be read: ${why}`);
  }
  const client = await DBOSClient.create({ systemDatabaseUrl, systemDatabasePool: pool });
  const summary = (w: WorkflowStatusLike): DurableRunSummary => ({
    id: w.workflowID,
    body: specOf(w).body,
    status: w.status,
    executor: w.executorId ?? null,
    applicationVersion: w.applicationVersion ?? null,
    createdAt: new Date(w.createdAt).toISOString(),
    updatedAt: w.updatedAt === undefined ? null : new Date(w.updatedAt).toISOString(),
    outcome: outcomeOf(w),
  });
  return {
    async list(limit = 50) {
      const roots = await client.listWorkflows({ workflowName: 'cohort.root', sortDesc: true, limit, loadInput: true, loadOutput: true });
      return roots.map(summary);
    },
    async show(id) {
      const [root] = await client.listWorkflows({ workflowIDs: [id], workflowName: 'cohort.root', loadInput: true, loadOutput: true });
      if (!root) return null;
      const children = await client.listWorkflows({ workflow_id_prefix: `${id}/`, loadInput: true, loadOutput: true });
      const all = [root, ...children];
      const { rows } = await pool
        .query<{ unit: string; value: { executor: string; at: number } }>(
          `SELECT unit, value FROM ${JOURNAL_SCHEMA}.records WHERE (unit = $1 OR starts_with(unit, $2)) AND starts_with(key, 'start:')`,
          [id, `${id}/`],
        )
        .catch(() => ({ rows: [] as { unit: string; value: { executor: string; at: number } }[] }));
      const units = all
        .map((w): DurableUnitView => {
          const spec = specOf(w);
          const starts = rows
            .filter((r) => r.unit === w.workflowID)
            .map((r) => r.value)
            .sort((a, b) => a.at - b.at)
            .map((v) => ({ executor: v.executor, at: new Date(v.at).toISOString() }));
          const slash = w.workflowID.lastIndexOf('/');
          return {
            id: w.workflowID,
            parent: slash < 0 ? null : w.workflowID.slice(0, slash),
            body: spec.body,
            name: spec.name ?? null,
            status: w.status,
            executor: w.executorId ?? null,
            starts,
            outcome: outcomeOf(w),
          };
        })
        .sort((a, b) => a.id.localeCompare(b.id));
      return { ...summary(root), units };
    },
    async workers() {
      const { rows } = await pool
        .query<{ executor: string; app_version: string; beat_at: Date; adopted_by: string | null }>(
          `SELECT executor, app_version, beat_at, adopted_by FROM ${WORKERS_TABLE} ORDER BY executor`,
        )
        .catch(() => ({ rows: [] as { executor: string; app_version: string; beat_at: Date; adopted_by: string | null }[] }));
      return rows.map((r) => ({
        executor: r.executor,
        applicationVersion: r.app_version,
        beatAt: r.beat_at.toISOString(),
        adoptedBy: r.adopted_by,
      }));
    },
    async close() {
      await client.destroy();
      await pool.end().catch(() => undefined);
    },
  };
}

type WorkflowStatusLike = Awaited<ReturnType<Awaited<ReturnType<typeof DBOSClient.create>>['listWorkflows']>>[number];

/** The body and name a unit's recorded input names. */
function specOf(w: WorkflowStatusLike): { body: string; name?: string } {
  const spec = w.input?.[0] as { body?: unknown; name?: unknown } | undefined;
  return {
    body: typeof spec?.body === 'string' ? spec.body : '?',
    ...(typeof spec?.name === 'string' ? { name: spec.name } : {}),
  };
}

/** `committed`, or the failure's kind, from a unit's recorded output; the DBOS status otherwise. */
function outcomeOf(w: WorkflowStatusLike): string | null {
  const out = w.output as { status?: unknown; failure?: { kind?: unknown } } | undefined;
  if (out?.status === 'committed') return 'committed';
  if (out?.status === 'failed') return String(out.failure?.kind ?? 'failed');
  return w.status === 'CANCELLED' ? 'cancelled' : null;
}

/** A URL without its password. */
function redacted(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return 'the system database';
  }
}
