import { expect } from 'vitest';
import { createRuntime } from '@cohort/runtime';
import type { SessionOutcome } from '@cohort/runtime';
import { PostgresStore } from '@cohort/store-postgres';
import { fanOut } from './bodies.ts';
import { normalise } from './normalise.ts';
import { PG_URL, sql } from './pg.ts';

/** The output of the fan-out root. */
export type FanOutOutput = { statuses: string[]; told: string[] };

/**
 * Asserts that the fan-out run `outcome` left in store schema `schema` exactly what a run
 * without a crash leaves: its root commit once, every id it told in the book, and the book
 * and blocks of the same fan-out run in process.
 */
export async function expectCrashFreeBook(outcome: SessionOutcome<FanOutOutput>, schema: string, children: number): Promise<void> {
  expect(outcome.status, JSON.stringify(outcome)).toBe('committed');
  if (outcome.status !== 'committed') return;
  expect(outcome.output.statuses, JSON.stringify(outcome.output)).toEqual(Array.from({ length: children + 1 }, () => 'committed'));
  const opened = await PostgresStore.open({ url: PG_URL, schema });
  if (!opened.ok) throw new Error('the store did not open');
  const store = opened.store;
  try {
    const page = await store.history({ limit: 1000 });
    if (!page.ok) throw new Error(page.error.message);
    const commits = page.commits.filter((c) => c.kind === 'commit');
    expect(
      commits.map((c) => c.sessionId),
      'the root commit reached the store once',
    ).toEqual([outcome.sessionId]);
    const book = (await store.load()).book;
    for (const id of outcome.output.told) expect(book.get(id), `told id ${id}`).toBeDefined();
    // the book and blocks of an uncrashed run (in process: the same bodies, the same merges)
    const rt = createRuntime();
    await rt.run(fanOut, { input: { children, delayMs: 0 } });
    const local = await rt.history();
    if (!local.ok) throw new Error('no history');
    expect(normalise(book, commits)).toEqual(
      normalise(
        rt.book,
        local.commits.filter((c) => c.kind === 'commit'),
      ),
    );
    await rt.close();
  } finally {
    await store.close();
  }
}

/** The units of run `runId` (its root and children) with their status and executor, from DBOS's table. */
export async function unitsOf(runId: string, systemDatabaseUrl: string): Promise<{ id: string; status: string; executor: string }[]> {
  return sql<{ id: string; status: string; executor: string }>(
    `SELECT workflow_uuid AS id, status, executor_id AS executor FROM dbos.workflow_status
     WHERE workflow_uuid = $1 OR workflow_uuid LIKE $2 ORDER BY workflow_uuid`,
    [runId, `${runId}/%`],
    systemDatabaseUrl,
  );
}

/** How many times each writer child started, by its ordinal (`child 3` → 3), from the workers' log. */
async function startsByChild(logSchema: string): Promise<Map<string, number>> {
  const starts = await sql<{ issue: string; n: number }>(`SELECT issue, count(*)::int AS n FROM ${logSchema}.starts GROUP BY issue`);
  return new Map(starts.map((s) => [s.issue, s.n]));
}

/** The writer child (`child 3`) a unit id of the fan-out stands for (`kill-1/0.4`). */
function childOf(unit: string): string {
  return `child ${Number(/\/0\.(\d+)$/.exec(unit)?.[1]) - 1}`;
}

/** A crash ran no recorded child again: each of the `recorded` units started once, and every one of the `children` started. */
export async function expectRecordedRanOnce(logSchema: string, recorded: readonly string[], children: number): Promise<void> {
  const runsOf = await startsByChild(logSchema);
  for (const unit of recorded) expect(runsOf.get(childOf(unit)), `runs of recorded child ${unit}`).toBe(1);
  for (let i = 0; i < children; i++) expect(runsOf.get(`child ${i}`) ?? 0, `child ${i} ran`).toBeGreaterThanOrEqual(1);
}
