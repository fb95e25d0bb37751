/**
 * Real processes, a kill between two attempts: a registered child spawned with `retry` fails
 * twice and succeeds on its third attempt, each attempt charging 100 tokens to an in-process
 * parent of 1,000. Once its first attempt is recorded and its second is running, the worker is
 * SIGKILLed and started again with the same executor id. The first attempt does not run again,
 * the count goes on (the third attempt is attempt 3), each attempt that was recorded is charged
 * once, and the root commit reaches the store once.
 */
import { expect, it } from 'vitest';
import type { SessionOutcome } from '@cohort/runtime';
import { PostgresStore } from '@cohort/store-postgres';
import { createRuntime } from '@cohort/runtime';
import { budgeted } from './utils/budgetBodies.ts';
import type { RetryRootInput } from './utils/budgetBodies.ts';
import { unitsOf } from './utils/crashFree.ts';
import { useFleet } from './utils/fleet.ts';
import { PG_URL } from './utils/pg.ts';

const fleet = useFleet();
const { schema, systemDatabaseUrl } = fleet;
const INPUT: RetryRootInput = { issue: 'flaky', succeedsOn: 3, tokens: 100, attempts: 3, holdOn: 2, holdMs: 3_000 };
const RUN = { id: 'retry-kill-1', children: 0, delayMs: 0, body: 'retryRoot', input: INPUT };

/** How many times each attempt started, from the workers' log. */
async function startsOf(): Promise<Record<string, number>> {
  const counts: Record<string, number> = {};
  for (const s of await fleet.starts()) counts[s.issue] = (counts[s.issue] ?? 0) + 1;
  return counts;
}

it('durable run - SIGKILL between two attempts of a retried child: the recorded attempt is not run again, the count goes on, each charged once', async () => {
  const first = fleet.start({ ...fleet.options('worker-1'), run: RUN });
  await first.line('ready', 40_000);
  // the first attempt recorded (failed), the second running
  for (const end = Date.now() + 30_000; Date.now() < end; await new Promise((r) => setTimeout(r, 25))) {
    if ((await startsOf())['flaky #2']) break;
  }
  const units = await unitsOf(RUN.id, systemDatabaseUrl);
  expect(units.find((u) => u.id === `${RUN.id}/0.1.1`)?.status, 'the first attempt recorded before the kill').toBe('SUCCESS');
  first.proc.kill('SIGKILL');
  await new Promise((r) => first.proc.once('exit', r));
  expect(first.lines.find((l) => l['t'] === 'outcome')).toBeUndefined();

  fleet.start(fleet.options('worker-1'));
  const asker = fleet.start({ ...fleet.options('worker-2'), run: RUN });
  const { outcome } = (await asker.line('outcome', 60_000)) as { outcome: SessionOutcome };
  expect(outcome).toMatchObject({ status: 'committed', output: { status: 'committed', output: 3, attempt: 3, left: 700 } });
  const starts = await startsOf();
  expect(starts['flaky #1'], 'runs of the recorded first attempt').toBe(1);
  expect(starts['flaky #3'], 'runs of the third attempt').toBe(1);
  expect(starts['flaky #2'], 'the second attempt, cut off by the kill, ran again').toBeGreaterThanOrEqual(1);
  expect((await unitsOf(RUN.id, systemDatabaseUrl)).map((u) => `${u.id} ${u.status}`)).toEqual([
    `${RUN.id} SUCCESS`,
    `${RUN.id}/0.1.1 SUCCESS`,
    `${RUN.id}/0.1.1#2 SUCCESS`,
    `${RUN.id}/0.1.1#3 SUCCESS`,
  ]);
  const opened = await PostgresStore.open({ url: PG_URL, schema });
  if (!opened.ok) throw new Error('the store did not open');
  try {
    const page = await opened.store.history({ limit: 100 });
    if (!page.ok) throw new Error(page.error.message);
    expect(
      page.commits.filter((c) => c.kind === 'commit').map((c) => c.sessionId),
      'the root commit once',
    ).toEqual([outcome.sessionId]);
    expect([...(await opened.store.load()).book.skills()].map((s) => s.issue)).toEqual(['flaky']);
  } finally {
    await opened.store.close();
  }

  // budgets through DBOS: the same accounts as in process
  const spend = fleet.start({ ...fleet.options('worker-3'), run: { ...RUN, id: 'budget-1', body: 'budgeted', input: null } });
  const spent = (await spend.line('outcome', 60_000)) as { outcome: SessionOutcome };
  const rt = createRuntime();
  const here = await rt.run(budgeted);
  await rt.close();
  expect(here.status === 'committed' && here.output).toEqual({
    ended: ['committed', 'budget_exhausted', 'committed'],
    left: { tokens: 700, requests: 8 },
  });
  expect(spent.outcome).toMatchObject({ status: 'committed', output: here.status === 'committed' ? here.output : null });
}, 180_000);
