/**
 * One durable worker of scenario 10: opens the PostgreSQL store and `openDurable` with the
 * tree's bodies, prints `{"type":"ready"}`, and serves the queues. A line
 * `{"type":"run","id":…,"children":n}` on stdin starts a run of the tree here; it prints
 * `{"type":"done","id":…,"ms":…,"committed":…,"failures":[…]}` when the run's outcome is in. Every time a
 * root session starts here (a new run, or one resumed after a kill) it prints
 * `{"type":"root"}`. Arguments: one JSON object (see {@link DurableWorkerOptions}).
 */
import { createInterface } from 'node:readline';
import { openDurable } from '@cohort/durable';
import { describeOpenError } from '@cohort/store';
import { PostgresStore } from '@cohort/store-postgres';
import { z } from 'zod';
import { childInput } from '../children.ts';
import { rootStarted, treeBodies } from './durableBodies.ts';
import type { FanOutput } from './durableBodies.ts';

/** What the parent passes. */
const DurableWorkerOptionsSchema = z
  .object({
    storeUrl: z.string(),
    storeSchema: z.string(),
    systemDatabaseUrl: z.string(),
    executorId: z.string(),
    workerConcurrency: z.number().int().positive(),
    pollingIntervalMs: z.number().int().positive(),
    systemDatabasePoolSize: z.number().int().positive(),
    heartbeatMs: z.number().int().positive(),
    /** 0: no takeover (a killed worker's units wait for it to start again). */
    takeoverAfterMs: z.number().int().nonnegative(),
  })
  .readonly();
export type DurableWorkerOptions = z.infer<typeof DurableWorkerOptionsSchema>;

/** A run the parent asks for. */
const RunLineSchema = z.object({ type: z.literal('run'), id: z.string(), children: z.number().int().nonnegative() });

const options = childInput(DurableWorkerOptionsSchema, 'durable worker');
const say = (line: object): void => void process.stdout.write(`${JSON.stringify(line)}\n`);

const opened = await PostgresStore.open({ url: options.storeUrl, schema: options.storeSchema, poolSize: 2 });
if (!opened.ok) {
  process.stderr.write(`${describeOpenError(opened.error)}\n`);
  process.exit(2);
}
rootStarted.hook = () => say({ type: 'root' });
const durable = await openDurable({
  systemDatabaseUrl: options.systemDatabaseUrl,
  store: opened.store,
  bodies: treeBodies,
  executorId: options.executorId,
  workerConcurrency: options.workerConcurrency,
  pollingIntervalMs: options.pollingIntervalMs,
  systemDatabasePoolSize: options.systemDatabasePoolSize,
  heartbeatMs: options.heartbeatMs,
  takeoverAfterMs: options.takeoverAfterMs,
  limits: { maxDepth: 1 },
});
say({ type: 'ready' });

const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
  const asked = childInput(RunLineSchema, 'durable worker', line);
  const t0 = performance.now();
  void durable.run<FanOutput>('fan', { children: asked.children }, { id: asked.id }).then((outcome) => {
    const ms = performance.now() - t0;
    if (outcome.status === 'committed') say({ type: 'done', id: asked.id, ms, ...outcome.output });
    else say({ type: 'done', id: asked.id, ms, committed: -1, failures: [`${outcome.failure.kind}: ${outcome.failure.message}`] });
  });
}
await durable.close();
await opened.store.close();
process.exit(0);
