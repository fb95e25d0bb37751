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
import { rootStarted, treeBodies } from './durableBodies.ts';
import type { FanOutput } from './durableBodies.ts';

/** What the parent passes. */
export interface DurableWorkerOptions {
  readonly storeUrl: string;
  readonly storeSchema: string;
  readonly systemDatabaseUrl: string;
  readonly executorId: string;
  readonly workerConcurrency: number;
  readonly pollingIntervalMs: number;
  readonly systemDatabasePoolSize: number;
  readonly heartbeatMs: number;
  /** 0: no takeover (a killed worker's units wait for it to start again). */
  readonly takeoverAfterMs: number;
}

const options = JSON.parse(process.argv[2] ?? '{}') as DurableWorkerOptions;
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
  const asked = JSON.parse(line) as { type: 'run'; id: string; children: number };
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
