/**
 * Cancellation across workers: this process and a worker process serve the queue; a root's
 * sleeping children run on both. `durable.cancel` of the root stops every one of them where it
 * runs, the run resolves as `cancelled`, and nothing of the tree reaches the store.
 */
import { expect, it } from 'vitest';
import { useFleet } from './utils/fleet.ts';
import { isDurableError } from '../src/index.ts';
import { unitsOf } from './utils/crashFree.ts';

const fleet = useFleet({ heartbeatMs: 100 });
const { systemDatabaseUrl } = fleet;

it('durable.cancel - a root cancelled mid-run: its children stop on every worker, the run is cancelled, nothing lands', async () => {
  const { durable, store } = await fleet.openHere({ executorId: 'main', workerConcurrency: 2, heartbeatMs: 100, takeoverAfterMs: 0 });
  const worker = fleet.start(fleet.options('worker-2'));
  await worker.line('ready', 40_000);

  const CHILDREN = 4;
  const running = durable.run('sleepers', { children: CHILDREN, ms: 120_000 }, { id: 'cancel-1' });
  let starts: { issue: string; executor: string }[] = [];
  for (const end = Date.now() + 30_000; Date.now() < end; await new Promise((r) => setTimeout(r, 50))) {
    starts = await fleet.starts();
    if (starts.length === CHILDREN) break;
  }
  expect(starts.length, 'every sleeper started').toBe(CHILDREN);
  expect(new Set(starts.map((s) => s.executor)), 'sleepers on both workers').toEqual(new Set(['main', 'worker-2']));

  await durable.cancel('cancel-1');
  const outcome = await running;
  expect(outcome).toMatchObject({ status: 'failed', failure: { kind: 'cancelled', category: 'interruption' } });

  // every sleeper's session ended where it ran
  let stopped: string[] = [];
  for (const end = Date.now() + 30_000; Date.now() < end; await new Promise((r) => setTimeout(r, 50))) {
    stopped = (await fleet.starts()).filter((s) => s.issue.startsWith('stopped ')).map((s) => `${s.issue} on ${s.executor}`);
    if (stopped.length === CHILDREN) break;
  }
  expect(stopped.sort()).toEqual(starts.map((s) => `stopped ${s.issue} on ${s.executor}`).sort());
  const units = await unitsOf('cancel-1', systemDatabaseUrl);
  expect(units.map((u) => u.status)).toEqual(Array.from({ length: CHILDREN + 1 }, () => 'CANCELLED'));
  expect((await store.load()).revision, 'nothing of the tree reached the store').toBe(0);

  // the same id again: the cancelled outcome, nothing runs
  expect(await durable.run('sleepers', { children: CHILDREN, ms: 1 }, { id: 'cancel-1' })).toMatchObject({
    failure: { kind: 'cancelled' },
  });
  const unknown: unknown = await durable.cancel('no-such-run').catch((e: unknown) => e);
  expect(isDurableError(unknown) && unknown.code).toBe('DURABLE_UNKNOWN_RUN');
}, 120_000);
