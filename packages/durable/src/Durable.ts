import type { Observable } from 'rxjs';
import { z } from 'zod';
import type { PlacedEvent, SessionOutcome } from '@cohort/runtime';
import type { RegisteredBody } from './Bodies.ts';

/** Options of one durable run. */
export interface DurableRunOptions {
  /** The run's id: a second run with this id, from any worker, returns the first one's outcome (1–200 characters, no `/`). */
  readonly id: string;
  readonly name?: string;
  /** Fails the root session with kind `timeout` after this many milliseconds. */
  readonly timeoutMs?: number;
}

/** {@link DurableRunOptions}, checked where they enter. */
export const RunOptionsSchema = z.object({
  id: z.string().regex(/^[^/]{1,200}$/, '1 to 200 characters, no /'),
  name: z.string().optional(),
  timeoutMs: z.number().int().positive().optional(),
});

/**
 * One worker process of a durable Cohort application; see {@link openDurable}.
 */
export interface Durable {
  /** This worker's DBOS executor id (start it again with the same one to resume its unfinished work). */
  readonly executorId: string;
  /**
   * Runs registered body `body` (by name, or the registered function itself) as a durable root
   * session; resolves with its outcome as `rt.run` gives it, never rejects for what happens in
   * the tree. Idempotent by `id`: a second call with the same id, from any worker, returns the
   * first run's outcome and runs nothing. Throws a {@link DurableError} for a body that is not
   * registered, an input that cannot be recorded, or bad options.
   */
  run<O = unknown>(body: string | RegisteredBody, input: unknown, options: DurableRunOptions): Promise<SessionOutcome<O>>;
  /**
   * Cancels run `id` and every unit of its tree, on whichever worker runs them: a running
   * session ends as `cancelled` within `heartbeatMs` (nothing of its tree reaches the store),
   * a queued one never starts; `durable.run` with that id resolves with the root's failure,
   * kind `cancelled`. A finished run stays as it ended. Throws `DURABLE_UNKNOWN_RUN` for an id
   * no worker ran.
   */
  cancel(id: string): Promise<void>;
  /**
   * The events of run `id` (from its start, on every worker), each naming the worker that ran
   * its session, and a `session.resumed` for each unit started again after its worker was
   * lost; completes once the run has finished. See `watchRun`, which any process can call.
   *
   * @example
   * const recorder = recordRun({ events$: durable.watch('survey-1') });
   */
  watch(id: string, options?: { readonly pollingIntervalMs?: number }): Observable<PlacedEvent>;
  /** Stops this worker: what it was running is left to a worker started again with its executor id (or taken over). */
  close(): Promise<void>;
}
