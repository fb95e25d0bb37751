/**
 * Upgrades: a run started by workers of application version v1 is resumed only by workers of
 * v1. Its worker is SIGKILLed; a worker of v2 neither takes it over nor runs its children, and
 * asking it for the run is a clear error; a worker of v1 started later takes it over, and the
 * run completes with the book of a run without the crash, which v2 then reads.
 */
import { expect, it } from 'vitest';
import { useFleet } from './utils/fleet.ts';
import type { SessionOutcome } from '@cohort/runtime';
import { isDurableError } from '../src/index.ts';
import { started } from './utils/bodies.ts';
import { expectCrashFreeBook, unitsOf } from './utils/crashFree.ts';
import type { FanOutOutput } from './utils/crashFree.ts';
import { sql } from './utils/pg.ts';

const TIMING = { heartbeatMs: 200, takeoverAfterMs: 1_500 };
const fleet = useFleet({ applicationVersion: 'v1', ...TIMING });
const { schema, logSchema, systemDatabaseUrl } = fleet;
const RUN = { id: 'versions-1', children: 6, delayMs: 500 };
const v1 = (executorId: string) => fleet.options(executorId);
const start = fleet.start;

it('durable run - a run of version v1 is resumed by v1 workers only; a v2 worker asking for it gets DURABLE_OTHER_VERSION', async () => {
  const first = start({ ...v1('worker-1'), run: RUN });
  await first.line('ready', 40_000);
  for (const end = Date.now() + 30_000; Date.now() < end; await new Promise((r) => setTimeout(r, 25))) {
    const done = (await unitsOf(RUN.id, systemDatabaseUrl)).filter((u) => u.id !== RUN.id && u.status === 'SUCCESS').length;
    if (done >= 2 && done < RUN.children) break;
  }
  first.proc.kill('SIGKILL');
  await new Promise((r) => first.proc.once('exit', r));

  // a worker of v2 joins: it does not take over the dead v1 worker, nor run its queued children
  const { durable } = await fleet.openHere({ executorId: 'v2-worker', applicationVersion: 'v2', ...TIMING });
  await new Promise((r) => setTimeout(r, 2 * TIMING.takeoverAfterMs + 4 * TIMING.heartbeatMs));
  const root = (await unitsOf(RUN.id, systemDatabaseUrl)).find((u) => u.id === RUN.id);
  expect(root, 'the run waits for a worker of its version').toMatchObject({ status: 'PENDING', executor: 'worker-1' });
  const [dead] = await sql<{ adopted_by: string | null }>(
    'SELECT adopted_by FROM cohort_durable.workers WHERE executor = $1',
    ['worker-1'],
    systemDatabaseUrl,
  );
  expect(dead?.adopted_by).toBeNull();
  const refused: unknown = await durable
    .run('fanOut', { children: RUN.children, delayMs: RUN.delayMs }, { id: RUN.id })
    .catch((e: unknown) => e);
  expect(isDurableError(refused) && refused.code).toBe('DURABLE_OTHER_VERSION');
  expect(String(refused)).toContain('only workers of version v1 resume it (this worker is version v2)');

  // a worker of v1 takes it over; the run completes; v2 reads its recorded outcome
  start(v1('worker-5'));
  let status: { status: string; executor: string } | undefined;
  for (const end = Date.now() + 60_000; Date.now() < end; await new Promise((r) => setTimeout(r, 100))) {
    status = (await unitsOf(RUN.id, systemDatabaseUrl)).find((u) => u.id === RUN.id);
    if (status?.status === 'SUCCESS') break;
  }
  expect(status).toMatchObject({ status: 'SUCCESS', executor: 'worker-5' });
  const ranOnV2 = await sql<{ n: number }>(`SELECT count(*)::int AS n FROM ${logSchema}.starts WHERE executor = 'v2-worker'`);
  expect(ranOnV2[0]?.n, 'no child of the v1 run ran on the v2 worker').toBe(0);
  const outcome = (await durable.run(
    'fanOut',
    { children: RUN.children, delayMs: RUN.delayMs },
    { id: RUN.id },
  )) as SessionOutcome<FanOutOutput>;
  started.hook = () => undefined; // the run without a crash, below, runs the writers in this process
  await expectCrashFreeBook(outcome, schema, RUN.children);
}, 150_000);
