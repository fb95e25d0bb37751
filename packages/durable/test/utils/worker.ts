/**
 * A durable worker process for the kill test: opens the store and a durable worker with the
 * test bodies, logs each writer's start to a table (so the test counts the runs of each
 * child), prints `{"t":"ready"}`, and, when given a run id, runs the fan-out and prints its
 * outcome. Each line `{"t":"run","id":…,"body":…,"input":…}` on its standard input runs that
 * run too (or asks for its outcome) and prints `{"t":"outcome","id":…,"outcome":…}`. It stays
 * until it is killed or its standard input closes.
 */
import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { BasicTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import pg from 'pg';
import { z } from 'zod';
import { PostgresStore } from '@cohort/store-postgres';
import { openDurable } from '../../src/index.ts';
import { agent, agentTree, modelCalls } from './agents.ts';
import { ran, started, testBodies } from './bodies.ts';
import { budgetBodies } from './budgetBodies.ts';
import { treeBodies } from './treeBodies.ts';

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
  /** The runtime's `maxDepth` (default the runtime's). */
  readonly maxDepth?: number;
}

/** A run asked for on the worker's standard input, one JSON line each. */
const RunCommandSchema = z.object({ t: z.literal('run'), id: z.string().min(1), body: z.string().min(1), input: z.unknown() });

const options = JSON.parse(process.argv[2] ?? '{}') as WorkerOptions;
const say = (line: object): void => void process.stdout.write(`${JSON.stringify(line)}\n`);

const log = new pg.Pool({ connectionString: options.storeUrl, max: 1 });
log.on('error', () => undefined);
/**
 * Logs a start, a call or a span. A connection the server refused at its limit (53300: the machine's
 * server is shared) is asked for again: the row was not written, and a failed log would fail
 * the session that logs it. Any other error is the session's.
 */
async function logged(text: string, values: readonly unknown[]): Promise<void> {
  for (let tries = 1; ; tries++) {
    try {
      await log.query(text, [...values]);
      return;
    } catch (err) {
      if ((err as { code?: unknown }).code !== '53300' || tries >= 50) throw err;
      await new Promise((r) => setTimeout(r, 200));
    }
  }
}
const starts = `INSERT INTO ${options.logSchema}.starts (issue, executor) VALUES ($1, $2)`;
started.hook = (issue) => logged(starts, [issue, options.executorId]);
modelCalls.hook = (task, step) => logged(starts, [`call ${task} ${step}`, options.executorId]);
ran.hook = (issue, from, to) =>
  logged(`INSERT INTO ${options.logSchema}.spans (issue, executor, from_ms, to_ms) VALUES ($1, $2, $3, $4)`, [
    issue,
    options.executorId,
    from,
    to,
  ]);

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

// a small pool: several workers and the tests' other processes share the server's connections
const opened = await PostgresStore.open({ url: options.storeUrl, schema: options.storeSchema, poolSize: 2 });
if (!opened.ok) throw new Error('the store did not open');
const durable = await openDurable({
  systemDatabaseUrl: options.systemDatabaseUrl,
  store: opened.store,
  bodies: { ...testBodies, ...budgetBodies, agent, agentTree, ...treeBodies },
  executorId: options.executorId,
  workerConcurrency: options.workerConcurrency ?? 2,
  ...(options.globalConcurrency !== undefined ? { globalConcurrency: options.globalConcurrency } : {}),
  systemDatabasePoolSize: options.systemDatabasePoolSize ?? 4,
  ...(options.maxDepth !== undefined ? { limits: { maxDepth: options.maxDepth } } : {}),
  pollingIntervalMs: 50,
  ...(options.heartbeatMs !== undefined ? { heartbeatMs: options.heartbeatMs } : {}),
  ...(options.applicationVersion !== undefined ? { applicationVersion: options.applicationVersion } : {}),
  ...(options.takeoverAfterMs !== undefined ? { takeoverAfterMs: options.takeoverAfterMs } : {}),
});
say({ t: 'ready' });
let pending = '';
process.stdin.on('data', (chunk: Buffer) => {
  pending += chunk.toString();
  for (let nl = pending.indexOf('\n'); nl >= 0; nl = pending.indexOf('\n')) {
    const command = RunCommandSchema.parse(JSON.parse(pending.slice(0, nl)));
    pending = pending.slice(nl + 1);
    void durable.run(command.body, command.input, { id: command.id }).then(
      (outcome) => say({ t: 'outcome', id: command.id, outcome }),
      (err: unknown) => say({ t: 'error', id: command.id, message: String(err) }),
    );
  }
});
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
