import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import type { ConflictPolicy, Limits } from '@cohort/runtime';
import type { Store } from '@cohort/store';
import type { RegisteredBody } from './Bodies.ts';
import { checkConcurrency, ConcurrencyOptionsShape } from './QueueConcurrency.ts';
import type { QueueConcurrency } from './QueueConcurrency.ts';

/** Options of {@link openDurable}: one worker process of a durable Cohort application. */
export interface DurableOptions {
  /** The DBOS system database (`postgres://…/name`): created and migrated when absent; every worker names the same one. */
  readonly systemDatabaseUrl: string;
  /** The Skillbook store every worker shares (a `PostgresStore`): where each run's root commit lands, and where ids are leased. */
  readonly store: Store;
  /** The bodies this worker can run, by name: the same names and code on every worker. */
  readonly bodies: Readonly<Record<string, RegisteredBody>>;
  /**
   * This worker's name for DBOS (default: random). A worker started again with the same id
   * resumes the runs and children that its previous process left unfinished: give each worker
   * a stable one (a pod or host name).
   */
  readonly executorId?: string;
  /**
   * The version of the application's code (default `cohort`): a run is resumed, taken over and
   * has its children run only by workers of the version that started it; give each release its
   * own (a build id). See docs/durable.md, "Deploy a new version".
   */
  readonly applicationVersion?: string;
  /** The DBOS application name (default `cohort`). */
  readonly appName?: string;
  /** The name the queues of durable children start with (default `cohort`: `cohort.1` for depth 1, …). */
  readonly queue?: string;
  /**
   * How many child units of each depth run at once on each worker process (default 8, or
   * `globalConcurrency` when that is lower). A child waiting for children of its own holds its
   * place meanwhile: each depth has its own queue, so they always have room.
   */
  readonly workerConcurrency?: number;
  /** How many child units of each depth run at once over every worker together (default: no bound but each worker's). */
  readonly globalConcurrency?: number;
  /**
   * The limits of some depths' queues, over the two above: `{ 1: { globalConcurrency: 50 }, 2:
   * { workerConcurrency: 2 } }`. They are the queue's, kept in the system database: every worker
   * applies the ones the latest worker (of the newest version) opened with, so give every worker
   * the same.
   */
  readonly queues?: Readonly<Record<number, QueueConcurrency>>;
  /** How often a worker looks for queued children and finished ones, in ms (default 200). */
  readonly pollingIntervalMs?: number;
  /**
   * The size of each of this worker's two pools of connections to the system database (DBOS's
   * own, and the one that enqueues children and waits for their results): default 10. A worker
   * holds up to twice this, plus 5 (its journal's and DBOS's listener), at once; lower it when many workers share one server.
   */
  readonly systemDatabasePoolSize?: number;
  /** How often this worker records that it is alive and looks for dead workers, in ms (default 2,000). */
  readonly heartbeatMs?: number;
  /**
   * How long after another worker's last heartbeat this one takes over its unfinished units,
   * in ms (default 15,000; `0`: never — a dead worker's units wait for it to start again). A
   * worker that never comes back has its units running again on a live worker within
   * `takeoverAfterMs + heartbeatMs`, plus a queue poll. Keep it well above the longest pause
   * a live worker may have (a long garbage collection, a blocked event loop): a worker taken
   * over while still alive runs its units twice at once (the records keep the first result).
   */
  readonly takeoverAfterMs?: number;
  /** The limits of every unit's runtime (see `createRuntime`). */
  readonly limits?: Partial<Limits>;
  /** How a session's commits are merged into its parent's draft (default `reject`). */
  readonly conflicts?: ConflictPolicy;
  /** DBOS's log level (default `warn`). */
  readonly logLevel?: 'debug' | 'info' | 'warn' | 'error';
  /**
   * What this worker's units write to the run event log that `durable.watch` and `watchRun`
   * read (default `all`): `all` — every session event, model and tool calls included;
   * `sessions` — all but the calls (their content stays out of the system database); `off` —
   * nothing (its units' sessions are missing from what watchers see).
   */
  readonly events?: 'all' | 'sessions' | 'off';
}

const DEFAULT_HEARTBEAT_MS = 2_000;

/** The data options, checked where they enter. */
export const DurableOptionsSchema = z
  .object({
    systemDatabaseUrl: z.string().regex(/^postgres(ql)?:\/\//, 'a postgres:// URL'),
    executorId: z
      .string()
      .regex(/^[A-Za-z0-9_.:-]{1,100}$/, '1 to 100 letters, digits, _ . : or -')
      .optional(),
    applicationVersion: z.string().min(1).max(100).optional(),
    appName: z
      .string()
      .regex(/^[A-Za-z0-9_-]{1,64}$/)
      .optional(),
    queue: z
      .string()
      .regex(/^[A-Za-z0-9_.-]{1,64}$/)
      .optional(),
    ...ConcurrencyOptionsShape,
    pollingIntervalMs: z.number().int().min(10).max(60_000).optional(),
    // DBOS polls with half its pool: at least one connection for that
    systemDatabasePoolSize: z.number().int().min(2).max(1_000).optional(),
    logLevel: z.enum(['debug', 'info', 'warn', 'error']).optional(),
    events: z.enum(['all', 'sessions', 'off']).optional(),
    heartbeatMs: z.number().int().min(10).max(600_000).optional(),
    takeoverAfterMs: z.number().int().min(0).max(86_400_000).optional(),
  })
  .refine((o) => !o.takeoverAfterMs || o.takeoverAfterMs >= 3 * (o.heartbeatMs ?? DEFAULT_HEARTBEAT_MS), {
    message: 'takeoverAfterMs must be 0 or at least 3 heartbeats (3 × heartbeatMs): a live worker would be taken over',
    path: ['takeoverAfterMs'],
  })
  .superRefine(checkConcurrency);

/** {@link DurableOptions} with every default filled in. */
export interface ResolvedDurableOptions extends DurableOptions {
  readonly executorId: string;
  readonly applicationVersion: string;
  readonly appName: string;
  readonly queue: string;
  readonly pollingIntervalMs: number;
  readonly logLevel: 'debug' | 'info' | 'warn' | 'error';
  readonly heartbeatMs: number;
  readonly takeoverAfterMs: number;
  readonly events: 'all' | 'sessions' | 'off';
}

/** The options with their defaults. */
export function resolveOptions(options: DurableOptions): ResolvedDurableOptions {
  return {
    ...options,
    executorId: options.executorId ?? `cohort-${randomUUID()}`,
    applicationVersion: options.applicationVersion ?? 'cohort',
    appName: options.appName ?? 'cohort',
    queue: options.queue ?? 'cohort',
    pollingIntervalMs: options.pollingIntervalMs ?? 200,
    logLevel: options.logLevel ?? 'warn',
    heartbeatMs: options.heartbeatMs ?? DEFAULT_HEARTBEAT_MS,
    takeoverAfterMs: options.takeoverAfterMs ?? 15_000,
    events: options.events ?? 'all',
  };
}
