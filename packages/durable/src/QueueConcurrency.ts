import { z } from 'zod';
import { defaultLimits } from '@cohort/runtime';

/**
 * How many child units of one queue (the children at one depth of the trees) run at once.
 *
 * @example
 * const durable = await openDurable({
 *   systemDatabaseUrl,
 *   store,
 *   bodies,
 *   workerConcurrency: 8, // every queue: at most 8 at once on each worker
 *   queues: { 1: { globalConcurrency: 20 } }, // depth 1: at most 20 at once over all workers
 * });
 */
export interface QueueConcurrency {
  /** At most this many at once on each worker process. */
  readonly workerConcurrency?: number;
  /** At most this many at once over every worker together (default: no bound but each worker's). */
  readonly globalConcurrency?: number;
}

/** The default of `workerConcurrency`: what one worker runs of one queue at once. */
export const DEFAULT_WORKER_CONCURRENCY = 8;

const places = (max: number) => z.number().int().min(1).max(max);

/** The schema of {@link QueueConcurrency}: unknown keys refused (a misspelt limit would be no limit). */
export const QueueConcurrencySchema = z.strictObject({
  workerConcurrency: places(1_000).optional(),
  globalConcurrency: places(100_000).optional(),
});

/** The concurrency options of `openDurable`, as its schema checks them. */
export const ConcurrencyOptionsShape = {
  workerConcurrency: places(1_000).optional(),
  globalConcurrency: places(100_000).optional(),
  queues: z.record(z.string().regex(/^[1-9][0-9]{0,2}$/, 'a depth: 1, 2, …'), QueueConcurrencySchema).optional(),
  // only the depth is read here; createRuntime checks the rest of the limits
  limits: z.looseObject({ maxDepth: z.number().int().min(0).max(1_000).optional() }).optional(),
};

/** What the concurrency of the queues is read from. */
export interface ConcurrencyOptions {
  readonly workerConcurrency?: number | undefined;
  readonly globalConcurrency?: number | undefined;
  readonly queues?:
    | Readonly<Record<number, { readonly workerConcurrency?: number | undefined; readonly globalConcurrency?: number | undefined }>>
    | undefined;
  readonly limits?: { readonly maxDepth?: number | undefined } | undefined;
}

/** The limits the queue of depth `depth` is registered with. */
export interface ResolvedConcurrency {
  readonly workerConcurrency: number;
  readonly globalConcurrency?: number;
}

/**
 * The limits of the queue at `depth`: its own in `queues`, else the options' own, else the
 * defaults. An unset `workerConcurrency` is the default capped at `globalConcurrency` (a
 * worker may not hold more places than the whole queue has).
 */
export function concurrencyAt(options: ConcurrencyOptions, depth: number): ResolvedConcurrency {
  const own = options.queues?.[depth] ?? {};
  const globalConcurrency = own.globalConcurrency ?? options.globalConcurrency;
  const worker = own.workerConcurrency ?? options.workerConcurrency;
  const workerConcurrency = worker ?? Math.min(DEFAULT_WORKER_CONCURRENCY, globalConcurrency ?? DEFAULT_WORKER_CONCURRENCY);
  return globalConcurrency === undefined ? { workerConcurrency } : { workerConcurrency, globalConcurrency };
}

/** How deep a tree may reach (the runtime's `maxDepth`): one queue per depth, 1 to this. */
export function maxDepthOf(options: ConcurrencyOptions): number {
  return options.limits?.maxDepth ?? defaultLimits.maxDepth;
}

/**
 * Adds an issue for each depth in `queues` that no tree reaches (past `maxDepth`), and each
 * queue whose worker limit is above its global one (a worker could never fill its places:
 * the setting is a mistake, and DBOS refuses it).
 */
export function checkConcurrency(options: ConcurrencyOptions, ctx: z.RefinementCtx): void {
  const maxDepth = maxDepthOf(options);
  for (const key of Object.keys(options.queues ?? {})) {
    if (Number(key) > maxDepth) {
      ctx.addIssue({
        code: 'custom',
        path: ['queues', key],
        message: `no queue of depth ${key}: trees reach depth ${maxDepth} (limits.maxDepth)`,
      });
    }
  }
  // one issue per setting at fault: the options' own limits apply to every depth without its own
  const faults = new Map<string, { path: string[]; depths: number[]; worker: number; global: number }>();
  for (let depth = 1; depth <= maxDepth; depth++) {
    const { workerConcurrency, globalConcurrency } = concurrencyAt(options, depth);
    if (globalConcurrency === undefined || workerConcurrency <= globalConcurrency) continue;
    const path = [...(options.queues?.[depth] ? ['queues', String(depth)] : []), 'workerConcurrency'];
    const fault = faults.get(path.join('.')) ?? { path, depths: [], worker: workerConcurrency, global: globalConcurrency };
    fault.depths.push(depth);
    faults.set(path.join('.'), fault);
  }
  for (const { path, depths, worker, global } of faults.values()) {
    ctx.addIssue({
      code: 'custom',
      path,
      message: `workerConcurrency ${worker} is above globalConcurrency ${global} (the queue of depth ${depths.join(', ')}): lower the first or raise the second`,
    });
  }
}
