/**
 * Real processes, one trace: two durable workers export their spans over OTLP/HTTP to a
 * collector the test starts; the fan-out's root runs on one of them, its registered children
 * on both. Every span of the run is in one trace, and each child unit's root session span is a
 * child of the proxy session that spawned it — in the other process when the child ran there.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { attributeOf, startOtlpReceiver } from '../../../test/utils/otlpReceiver.ts';
import type { ExportedSpan, OtlpReceiver } from '../../../test/utils/otlpReceiver.ts';
import { databaseUrl, dropTestData, freshName, PG_URL, sql } from './utils/pg.ts';
import type { WorkerOptions } from './utils/worker.ts';
import { bundleWorker, startWorker } from './utils/workers.ts';
import type { WorkerProcess } from './utils/workers.ts';

const database = freshName('cohort_dbos_test');
const schema = freshName('durable');
const logSchema = `${schema}_log`;
const systemDatabaseUrl = databaseUrl(database);
const CHILDREN = 6;
const workers: WorkerProcess[] = [];
let bundle: Awaited<ReturnType<typeof bundleWorker>>;
let receiver: OtlpReceiver;

const base = (executorId: string): WorkerOptions => ({
  storeUrl: PG_URL,
  storeSchema: schema,
  systemDatabaseUrl,
  executorId,
  logSchema,
  otlpUrl: receiver.url,
});

beforeAll(async () => {
  bundle = await bundleWorker();
  receiver = await startOtlpReceiver();
  await sql(`CREATE SCHEMA ${logSchema}`);
  await sql(`CREATE TABLE ${logSchema}.starts (issue text NOT NULL, executor text NOT NULL, at timestamptz NOT NULL DEFAULT now())`);
});

afterAll(async () => {
  for (const w of workers) if (w.proc.exitCode === null) w.proc.kill('SIGKILL');
  await bundle?.dispose();
  await receiver?.close();
  await sql(`DROP SCHEMA IF EXISTS ${logSchema} CASCADE`);
  await dropTestData(database, schema);
});

/** Closes a worker as a service stops (its standard input ends): it flushes its spans and exits. */
async function stop(w: WorkerProcess): Promise<void> {
  const exited = new Promise<void>((resolve) => w.proc.once('exit', () => resolve()));
  w.proc.stdin.end();
  await exited;
}

it('durable run - one trace across workers: each child unit, wherever it ran, is a child span of the session that spawned it', async () => {
  const second = startWorker(bundle.file, base('worker-2'));
  workers.push(second);
  await second.line('ready', 40_000);
  const first = startWorker(bundle.file, { ...base('worker-1'), run: { id: 'traced-1', children: CHILDREN, delayMs: 300 } });
  workers.push(first);
  const outcome = await first.line('outcome', 90_000);
  expect(outcome['outcome']).toMatchObject({ status: 'committed' });
  await Promise.all(workers.map(stop));

  const spans: { worker: string; span: ExportedSpan }[] = receiver.received.flatMap((r) =>
    r.spans.map((span) => ({ worker: r.path.split('/')[1] ?? '', span })),
  );
  const sessions = spans.filter((s) => s.span.name.startsWith('invoke_agent '));
  expect(new Set(spans.map((s) => s.span.traceId)).size).toBe(1);
  const ranOn = new Set<string>();
  for (let i = 0; i < CHILDREN; i++) {
    // the proxy session in the parent's unit, and the child unit's root session
    const named = sessions.filter((s) => s.span.name === `invoke_agent writer ${i}`);
    expect(named).toHaveLength(2);
    const proxy = named.find((s) => s.worker === 'worker-1' && named.some((o) => o.span.parentSpanId === s.span.spanId));
    const unit = named.find((s) => s !== proxy);
    expect(proxy, `writer ${i}: no proxy span parenting the unit's`).toBeDefined();
    expect(unit?.span.parentSpanId).toBe(proxy?.span.spanId);
    expect(attributeOf(unit?.span, 'gen_ai.agent.name')).toBe(`writer ${i}`);
    if (unit) ranOn.add(unit.worker);
  }
  // the children spread over both processes: the trace crossed a process boundary
  expect([...ranOn].sort()).toEqual(['worker-1', 'worker-2']);
});
