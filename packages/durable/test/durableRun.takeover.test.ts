/**
 * Real processes, a worker that never comes back: three durable workers share one system
 * database and one store, with short heartbeats; the fan-out's root runs on the first one, its
 * children on all three. Once some children are recorded and others are not, the first worker
 * is SIGKILLed and not started again. A live worker takes over its units (the root and the
 * children it was running) once its heartbeat is older than `takeoverAfterMs`; the run
 * completes on the other two with the book of a run without the crash, and no recorded child
 * ran again.
 */
import { expect, it } from 'vitest';
import { useFleet } from './utils/fleet.ts';
import type { SessionOutcome } from '@cohort/runtime';
import { expectCrashFreeBook, expectRecordedRanOnce, unitsOf } from './utils/crashFree.ts';
import type { FanOutOutput } from './utils/crashFree.ts';
import { sql } from './utils/pg.ts';

const fleet = useFleet({ heartbeatMs: 200, takeoverAfterMs: 1_500 });
const { schema, logSchema, systemDatabaseUrl } = fleet;
const RUN = { id: 'takeover-1', children: 8, delayMs: 500 };

const base = (executorId: string) => fleet.options(executorId);
const start = fleet.start;

it('durable run - a worker SIGKILLed for good: a live worker takes over its root and children; the same book, nothing recorded run again', async () => {
  const first = start({ ...base('worker-1'), run: RUN });
  await first.line('ready', 40_000);
  const others = [start(base('worker-2')), start(base('worker-3'))];
  await Promise.all(others.map((w) => w.line('ready', 40_000)));

  let units: { id: string; status: string; executor: string }[] = [];
  const children = (): typeof units => units.filter((u) => u.id !== RUN.id);
  for (const end = Date.now() + 30_000; Date.now() < end; await new Promise((r) => setTimeout(r, 25))) {
    units = await unitsOf(RUN.id, systemDatabaseUrl);
    const done = children().filter((u) => u.status === 'SUCCESS').length;
    if (done >= 3 && done < RUN.children) break;
  }
  first.proc.kill('SIGKILL');
  await new Promise((r) => first.proc.once('exit', r));
  units = await unitsOf(RUN.id, systemDatabaseUrl);
  const recorded = children()
    .filter((u) => u.status === 'SUCCESS')
    .map((u) => u.id);
  expect(recorded.length, 'children recorded before the kill').toBeGreaterThanOrEqual(3);
  expect(
    first.lines.find((l) => l['t'] === 'outcome'),
    'the run had not finished at the kill',
  ).toBeUndefined();
  expect(units.find((u) => u.id === RUN.id)?.executor, 'the root ran on the first worker').toBe('worker-1');

  // nobody starts worker-1 again: the run finishes on the others
  let root: { status: string; executor: string } | undefined;
  for (const end = Date.now() + 60_000; Date.now() < end; await new Promise((r) => setTimeout(r, 100))) {
    root = (await unitsOf(RUN.id, systemDatabaseUrl)).find((u) => u.id === RUN.id);
    if (root?.status === 'SUCCESS') break;
  }
  expect(root?.status, 'the root finished without its first worker').toBe('SUCCESS');
  expect(['worker-2', 'worker-3'], 'the root was taken over').toContain(root?.executor);
  const [dead] = await sql<{ adopted_by: string | null }>(
    'SELECT adopted_by FROM cohort_durable.workers WHERE executor = $1',
    ['worker-1'],
    systemDatabaseUrl,
  );
  expect(['worker-2', 'worker-3']).toContain(dead?.adopted_by);

  // a worker asking for the run gets its recorded outcome
  const asker = start({ ...base('worker-4'), run: RUN });
  const { outcome } = (await asker.line('outcome', 40_000)) as { outcome: SessionOutcome<FanOutOutput> };
  await expectCrashFreeBook(outcome, schema, RUN.children);

  await expectRecordedRanOnce(logSchema, recorded, RUN.children);
  const after = await unitsOf(RUN.id, systemDatabaseUrl);
  expect(
    after.filter((u) => u.executor === 'worker-1' && u.status !== 'SUCCESS').map((u) => u.id),
    'no unit left to the dead worker',
  ).toEqual([]);
}, 150_000);
