/**
 * Real processes, one trace: two durable workers export their spans over OTLP/HTTP to a
 * collector the test starts; the fan-out's root runs on one of them, its registered children
 * on both. Every span of the run is in one trace, and each child unit's root session span is a
 * child of the proxy session that spawned it — in the other process when the child ran there.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { useFleet } from './utils/fleet.ts';
import { attributeOf, startOtlpReceiver } from '../../../test/utils/otlpReceiver.ts';
import type { ExportedSpan, OtlpReceiver } from '../../../test/utils/otlpReceiver.ts';
import type { WorkerOptions } from './utils/worker.ts';
import type { WorkerProcess } from './utils/workers.ts';

const CHILDREN = 6;
let receiver: OtlpReceiver;
const fleet = useFleet();
const workers: WorkerProcess[] = [];
const start = (options: WorkerOptions): WorkerProcess => {
  const w = fleet.start(options);
  workers.push(w);
  return w;
};
const base = (executorId: string): WorkerOptions => fleet.options(executorId, { otlpUrl: receiver.url });

beforeAll(async () => {
  receiver = await startOtlpReceiver();
});

afterAll(async () => {
  await receiver?.close();
});

/** Closes a worker as a service stops (its standard input ends): it flushes its spans and exits. */
async function stop(w: WorkerProcess): Promise<void> {
  const exited = new Promise<void>((resolve) => w.proc.once('exit', () => resolve()));
  w.proc.stdin.end();
  await exited;
}

it('durable run - one trace across workers: each child unit, wherever it ran, is a child span of the session that spawned it', async () => {
  const second = start(base('worker-2'));
  await second.line('ready', 40_000);
  const first = start({ ...base('worker-1'), run: { id: 'traced-1', children: CHILDREN, delayMs: 300 } });
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
