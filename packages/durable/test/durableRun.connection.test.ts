/**
 * A lost database connection mid-run: while a fan-out runs, every connection to the system
 * database (DBOS's and the units' records) is terminated by the server, eight times over a second. The run retries what
 * failed and completes with the book of a run without the fault.
 */
import { expect, it } from 'vitest';
import type { SessionOutcome } from '@cohort/runtime';
import { expectCrashFreeBook, unitsOf } from './utils/crashFree.ts';
import type { FanOutOutput } from './utils/crashFree.ts';
import { sql } from './utils/pg.ts';
import { useOneWorker } from './utils/oneWorker.ts';

const worker = useOneWorker();
const { database, schema, systemDatabaseUrl } = worker;

/** Terminates every connection to the system database but the caller's; how many. */
async function cutConnections(): Promise<number> {
  const rows = await sql<{ cut: boolean }>(
    'SELECT pg_terminate_backend(pid) AS cut FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()',
    [database],
  );
  return rows.filter((r) => r.cut).length;
}

it('durable run - the connections to the system database are cut mid-run, again and again: the run completes, the same book', async () => {
  const CHILDREN = 6;
  const running = worker.durable().run('fanOut', { children: CHILDREN, delayMs: 300 }, { id: 'cut-1' });
  for (const end = Date.now() + 30_000; Date.now() < end; await new Promise((r) => setTimeout(r, 25))) {
    const done = (await unitsOf('cut-1', systemDatabaseUrl)).filter((u) => u.id !== 'cut-1' && u.status === 'SUCCESS').length;
    if (done >= 1) break;
  }
  // cut again and again while children run, merge and record
  let cut = 0;
  for (let round = 0; round < 8; round++) {
    cut += await cutConnections();
    await new Promise((r) => setTimeout(r, 150));
  }
  expect(cut, 'connections cut').toBeGreaterThan(0);
  const outcome = (await running) as SessionOutcome<FanOutOutput>;
  await expectCrashFreeBook(outcome, schema, CHILDREN);
}, 120_000);
