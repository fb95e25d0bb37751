/**
 * A durable worker process for the kill test: opens the store and a durable worker with the
 * test bodies, logs each writer's start to a table (so the test counts the runs of each
 * child), prints `{"t":"ready"}`, and, when given a run id, runs the fan-out and prints its
 * outcome. It stays until it is killed or its standard input closes.
 */
import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { BasicTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import pg from 'pg';
import { PostgresStore } from '@cohort/store-postgres';
import { openDurable } from '../../src/index.ts';
import { agent, agentTree, modelCalls } from './agents.ts';
import { ran, started, testBodies } from './bodies.ts';
import { budgetBodies } from './budgetBodies.ts';

/** What the test starts a worker with (one JSON argument). */
export interface WorkerOptions {
  readonly storeUrl: string;
  readonly storeSchema: string;
  readonly systemDatabaseUrl: string;
  readonly executorId: string;
  /** Where each writer's start is logged: `<schema>.starts`. */
  readonly logSchema: string;
  /**
   * A run to start: the fan-out (`children` writers), with `body: 'agentTree'` agents of
   * `steps` model calls, or with another body its `input`.
   */
  readonly run?: {
    readonly id: string;
    readonly children: number;
    readonly delayMs: number;
    readonly body?: string;
    readonly steps?: number;
    readonly input?: unknown;
  };
  readonly heartbeatMs?: number;
  /** The queues' limits (default: 2 per worker, no global bound). */
  readonly workerConcurrency?: number;
  readonly globalConcurrency?: number;
  /** Connections to the system database (default 4: the test server's 100 are shared by every test running). */
  readonly systemDatabasePoolSize?: number;
  readonly applicationVersion?: string;
  readonly takeoverAfterMs?: number;
  /** A collector: the worker registers OpenTelemetry as a service would and exports to `<otlpUrl>/<executorId>/v1/traces`. */
  readonly otlpUrl?: string;
}

const options = JSON.parse(process.argv[2] ?? '{}') as WorkerOptions;
const say = (line: object): void => void process.stdout.write(`${JSON.stringify(line)}\n`);

const log = new pg.Pool({ connectionString: options.storeUrl, max: 2 });
log.on('error', () => undefined);
started.hook = async (issue) => {
  await log.query(`INSERT INTO ${options.logSchema}.starts (issue, executor) VALUES ($1, $2)`, [issue, options.executorId]);
};
ran.hook = async (issue, from, to) => {
  await log.query(`INSERT INTO ${options.logSchema}.spans (issue, executor, from_ms, to_ms) VALUES ($1, $2, $3, $4)`, [
    issue,
    options.executorId,
    from,
    to,
  ]);
};
modelCalls.hook = async (task, step) => {
  await log.query(`INSERT INTO ${options.logSchema}.starts (issue, executor) VALUES ($1, $2)`, [
    `call ${task} ${step}`,
    options.executorId,
  ]);
};

const tracer = options.otlpUrl
  ? new BasicTracerProvider({
      spanProcessors: [new SimpleSpanProcessor(new OTLPTraceExporter({ url: `${options.otlpUrl}/${options.executorId}/v1/traces` }))],
    })
  : null;
if (tracer) {
  trace.setGlobalTracerProvider(tracer);
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
}

const opened = await PostgresStore.open({ url: options.storeUrl, schema: options.storeSchema });
if (!opened.ok) throw new Error('the store did not open');
const durable = await openDurable({
  systemDatabaseUrl: options.systemDatabaseUrl,
  store: opened.store,
  bodies: { ...testBodies, ...budgetBodies, agent, agentTree },
  executorId: options.executorId,
  workerConcurrency: options.workerConcurrency ?? 2,
  ...(options.globalConcurrency !== undefined ? { globalConcurrency: options.globalConcurrency } : {}),
  systemDatabasePoolSize: options.systemDatabasePoolSize ?? 4,
  pollingIntervalMs: 50,
  ...(options.heartbeatMs !== undefined ? { heartbeatMs: options.heartbeatMs } : {}),
  ...(options.applicationVersion !== undefined ? { applicationVersion: options.applicationVersion } : {}),
  ...(options.takeoverAfterMs !== undefined ? { takeoverAfterMs: options.takeoverAfterMs } : {}),
});
say({ t: 'ready' });
process.stdin.resume();
process.stdin.on('end', () => {
  void durable
    .close()
    .then(() => opened.store.close())
    .then(() => log.end())
    .then(() => tracer?.shutdown())
    .then(() => process.exit(0));
});
if (options.run) {
  const { id, children, delayMs, body, steps, input } = options.run;
  const outcome =
    body === 'agentTree'
      ? await durable.run('agentTree', { steps: steps ?? 3, delayMs }, { id })
      : body === 'pulses'
        ? await durable.run('pulses', { children, ms: delayMs }, { id })
        : body !== undefined && body !== 'fanOut'
          ? await durable.run(body, input ?? null, { id })
          : await durable.run('fanOut', { children, delayMs }, { id });
  say({ t: 'outcome', outcome });
}
