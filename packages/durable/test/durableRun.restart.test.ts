/**
 * What a PostgreSQL restart looks like to a worker, without restarting the shared server:
 * while a fan-out runs, every backend of the run — the system database's (DBOS, the units'
 * records, the heartbeats) and the store's (its writer's connections) — is terminated, again
 * and again for a few seconds, across the children's merges and the root's commit. The run
 * ends, within a bound: with the book of a run without the fault (the root commit once, every
 * told id in the book), or with a structured failure and nothing of it in the store; asked
 * again, it gives the same outcome.
 */
import { expect, it } from 'vitest';
import type { SessionOutcome } from '@cohort/runtime';
import { PostgresStore } from '@cohort/store-postgres';
import { expectCrashFreeBook, unitsOf } from './utils/crashFree.ts';
import type { FanOutOutput } from './utils/crashFree.ts';
import { PG_URL, sql } from './utils/pg.ts';
import { useOneWorker } from './utils/oneWorker.ts';

const worker = useOneWorker();
const { database, schema, systemDatabaseUrl, writerId } = worker;

/** Terminates the run's backends, as a restart of the server would: the system database's and the store writer's; how many. */
async function cutTheRun(): Promise<number> {
  const rows = await sql<{ cut: boolean }>(
    `SELECT pg_terminate_backend(pid) AS cut FROM pg_stat_activity
     WHERE (datname = $1 OR starts_with(application_name, $2)) AND pid <> pg_backend_pid()`,
    [database, `cohort ${writerId}`],
  );
  return rows.filter((r) => r.cut).length;
}

/** The root commits of the store's history. */
async function rootCommits(): Promise<string[]> {
  const opened = await PostgresStore.open({ url: PG_URL, schema, listen: false });
  if (!opened.ok) throw new Error('the store did not open');
  try {
    const page = await opened.store.history({ limit: 1000 });
    if (!page.ok) throw new Error(page.error.message);
    return page.commits.filter((c) => c.kind === 'commit').map((c) => c.sessionId);
  } finally {
    await opened.store.close();
  }
}

/** Resolves once `count` child units of run `id` are recorded (or 30 s passed). */
async function childrenRecorded(id: string, count: number): Promise<void> {
  for (const end = Date.now() + 30_000; Date.now() < end; await new Promise((r) => setTimeout(r, 20))) {
    const units = await unitsOf(id, systemDatabaseUrl).catch(() => []);
    if (units.filter((u) => u.id !== id && u.status === 'SUCCESS').length >= count) return;
  }
}

/** `promise`'s value, or 'hung' once `ms` passed. */
function within<T>(promise: Promise<T>, ms: number): Promise<T | 'hung'> {
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<'hung'>((resolve) => (timer = setTimeout(() => resolve('hung'), ms)));
  return Promise.race([promise, bound]).finally(() => clearTimeout(timer));
}

it("durable run - the run's connections are cut as a server restart would, for seconds: it ends with the crash-free book or a structured failure, never a hang or a second append", async () => {
  const CHILDREN = 6;
  const running = worker.durable().run('fanOut', { children: CHILDREN, delayMs: 300 }, { id: 'restart-1' });
  // the server "restarts" while the children run and merge, and again as the root commits: every new connection of the run is cut too
  let cut = 0;
  for (const recorded of [1, CHILDREN]) {
    await childrenRecorded('restart-1', recorded);
    for (const end = Date.now() + 3_000; Date.now() < end; await new Promise((r) => setTimeout(r, 20))) cut += await cutTheRun();
  }
  expect(cut, 'connections cut').toBeGreaterThan(0);
  const outcome = (await within(running, 90_000)) as SessionOutcome<FanOutOutput> | 'hung';
  expect(outcome, 'the run ended').not.toBe('hung');
  if (outcome === 'hung') return;
  const commits = await rootCommits();
  if (outcome.status === 'committed') await expectCrashFreeBook(outcome, schema, CHILDREN);
  else {
    // a structured failure, and nothing of the run in the store
    expect(outcome.failure, JSON.stringify(outcome.failure)).toMatchObject({ kind: expect.any(String), message: expect.any(String) });
    expect(commits, 'a failed run appended nothing').toEqual([]);
  }
  expect(commits.length, 'the root commit at most once').toBeLessThanOrEqual(1);
  // asked again, the run gives the outcome it ended with
  const again = await within(worker.durable().run('fanOut', { children: CHILDREN, delayMs: 300 }, { id: 'restart-1' }), 60_000);
  expect(again).toEqual(outcome);
  expect(await rootCommits()).toEqual(commits);
}, 180_000);
