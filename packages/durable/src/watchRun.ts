import { Observable } from 'rxjs';
import pg from 'pg';
import { z } from 'zod';
import { parsePlacedEvent } from '@cohort/runtime';
import type { PlacedEvent } from '@cohort/runtime';
import { DurableError } from './DurableError.ts';
import { RunOptionsSchema } from './Durable.ts';
import { EVENTS_TABLE } from './internal/EventLog.ts';
import type { Queryable } from './internal/EventLog.ts';
import { isConnectionError } from './internal/retry.ts';

/** Options of {@link watchRun} and `durable.watch`. */
export interface WatchOptions {
  /** How often the event log is read, in ms (default 200). */
  readonly pollingIntervalMs?: number;
}

const WatchOptionsSchema = z.object({ pollingIntervalMs: z.number().int().min(10).max(60_000).optional() });

/** How many events one read takes at most. */
const PAGE = 500;
/** How many polls in a row may lose their connection before the stream fails. */
const LOST_POLLS = 20;
/** DBOS statuses of a workflow that will not run again. */
const UNFINISHED = ['PENDING', 'ENQUEUED'];

/**
 * The events of durable run `runId`, from its start, wherever its units ran: each unit's
 * runtime events placed in the run's tree (every event names its `worker` and `unit`), and a
 * `session.resumed` for each unit started again after its worker was lost. Read from the
 * event log of the system database (every worker writes its units' events there), so any
 * process can watch any run: a run that has not started yet is waited for; the stream
 * completes once the run has finished and every event of it was read. Feed it to
 * `@cohort/report` (`recordRun({ events$ })`, `serveLiveView({ events$ })`) to see the tree.
 * A lost connection is tried again for about ten seconds; a database that stays unreadable
 * ends the stream with a `DurableError`, code `DURABLE_UNREACHABLE`.
 *
 * @example
 * const recorder = recordRun({ events$: watchRun('postgres://127.0.0.1:5432/app_dbos', 'survey-1') });
 */
export function watchRun(systemDatabaseUrl: string, runId: string, options: WatchOptions = {}): Observable<PlacedEvent> {
  checked(runId, options);
  return new Observable<PlacedEvent>((subscriber) => {
    const pool = new pg.Pool({ connectionString: systemDatabaseUrl, max: 1, application_name: 'cohort watch' });
    pool.on('error', () => undefined);
    const sub = followRun(pool, runId, options).subscribe(subscriber);
    return () => {
      sub.unsubscribe();
      void pool.end().catch(() => undefined);
    };
  });
}

/** The options, checked where they enter (a programmer error: `DURABLE_INVALID_OPTIONS`). */
export function checked(runId: string, options: WatchOptions): void {
  const id = RunOptionsSchema.shape.id.safeParse(runId);
  if (!id.success) throw new DurableError('DURABLE_INVALID_OPTIONS', `watch: the run id: ${z.prettifyError(id.error)}`);
  const parsed = WatchOptionsSchema.safeParse(options);
  if (!parsed.success) throw new DurableError('DURABLE_INVALID_OPTIONS', `watch options: ${z.prettifyError(parsed.error)}`);
}

/** {@link watchRun} on a pool the caller owns (a worker's journal). */
export function followRun(db: Queryable, runId: string, options: WatchOptions = {}): Observable<PlacedEvent> {
  const pollMs = options.pollingIntervalMs ?? 200;
  return new Observable<PlacedEvent>((subscriber) => {
    let stopped = false;
    let timer: NodeJS.Timeout | null = null;
    let seen = 0;
    const read = async (): Promise<number> => {
      const { rows } = await tolerant(
        db.query<{ seq: string; event: unknown }>(
          `SELECT seq, event FROM ${EVENTS_TABLE} WHERE run = $1 AND seq > $2 ORDER BY seq LIMIT ${PAGE}`,
          [runId, seen],
        ),
      );
      for (const row of rows) {
        if (stopped) break;
        seen = Number(row.seq);
        const event = parsePlacedEvent(row.event);
        if (event) subscriber.next(event);
      }
      return rows.length;
    };
    const finished = async (): Promise<boolean> => {
      const { rows } = await tolerant(
        db.query<{ status: string }>('SELECT status FROM dbos.workflow_status WHERE workflow_uuid = $1', [runId]),
      );
      const status = rows[0]?.status;
      return status !== undefined && !UNFINISHED.includes(status);
    };
    let lost = 0;
    const tick = async (): Promise<void> => {
      try {
        // the run's status first: a run seen finished has written every event of its root, so one more read has them all
        const done = await finished();
        while (!stopped && (await read()) === PAGE);
        lost = 0;
        if (stopped) return;
        if (done) return subscriber.complete();
        timer = setTimeout(() => void tick(), pollMs);
      } catch (err) {
        // a lost or refused connection is tried again at the next polls, for about ten seconds
        if (!stopped && isConnectionError(err) && ++lost < LOST_POLLS) {
          timer = setTimeout(() => void tick(), Math.max(pollMs, 500));
          return;
        }
        const why = err instanceof Error ? err.message : String(err);
        subscriber.error(new DurableError('DURABLE_UNREACHABLE', `the events of run ${runId} cannot be read: ${why}`, { cause: err }));
      }
    };
    void tick();
    return () => {
      stopped = true;
      if (timer) clearTimeout(timer);
    };
  });
}

/** A read of a table no worker has made yet (no worker opened the database): nothing to read yet. */
async function tolerant<R>(query: Promise<{ rows: R[] }>): Promise<{ rows: R[] }> {
  try {
    return await query;
  } catch (err) {
    if ((err as { code?: unknown }).code === '42P01' || (err as { code?: unknown }).code === '3F000') return { rows: [] };
    throw err;
  }
}
