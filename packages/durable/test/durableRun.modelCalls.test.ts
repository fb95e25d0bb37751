/**
 * Real processes, model calls paid once: a root agent and two agent children (units of their
 * own) run `@cohort/ai`'s loop against a mock model; each call is logged as it starts. Once
 * some calls have returned (they are recorded) and others have not, the root's worker is
 * SIGKILLed and started again. The run completes with the book of a run without the crash,
 * and no call that returned before the kill was made again.
 */
import { expect, it } from 'vitest';
import { useFleet } from './utils/fleet.ts';
import { createRuntime } from '@cohort/runtime';
import type { SessionOutcome } from '@cohort/runtime';
import { PostgresStore } from '@cohort/store-postgres';
import { agentTree } from './utils/agents.ts';
import { normalise } from './utils/normalise.ts';
import { PG_URL, sql } from './utils/pg.ts';

const fleet = useFleet();
const { schema, logSchema, systemDatabaseUrl } = fleet;
const STEPS = 3;
const TASKS = ['root', 'left', 'right'];
const RUN = { id: 'agents-1', children: 0, delayMs: 400, body: 'agentTree', steps: STEPS } as const;

const base = (executorId: string) => fleet.options(executorId);
const start = fleet.start;

/** The model calls recorded so far (`root 1`: the root agent's second call), from what the units recorded. */
async function recordedCalls(): Promise<string[]> {
  const rows = await sql<{ value: { name: string; value: { content: { type: string; toolCallId?: string; text?: string }[] } } }>(
    `SELECT value FROM cohort_durable.records WHERE (unit = $1 OR unit LIKE $2) AND key LIKE 'step:%'`,
    [RUN.id, `${RUN.id}/%`],
    systemDatabaseUrl,
  );
  return rows.map(({ value }) => {
    const part = value.value.content[0];
    if (part?.type === 'tool-call') return (part.toolCallId ?? '').replace('-', ' ');
    return `${(part?.text ?? '').replace(' done', '')} ${STEPS}`;
  });
}

it('durable run - model calls through @cohort/ai are recorded steps: after a SIGKILL, a call that returned is not made again', async () => {
  const first = start({ ...base('worker-1'), run: RUN });
  await first.line('ready', 40_000);
  await start(base('worker-2')).line('ready', 40_000);

  const total = TASKS.length * (STEPS + 1);
  let before: string[] = [];
  for (const end = Date.now() + 30_000; Date.now() < end; await new Promise((r) => setTimeout(r, 25))) {
    before = await recordedCalls();
    if (before.length >= 2 && before.length < total - 2) break;
  }
  first.proc.kill('SIGKILL');
  await new Promise((r) => first.proc.once('exit', r));
  before = await recordedCalls();
  expect(before.length, 'calls recorded before the kill').toBeGreaterThanOrEqual(2);
  expect(before.length, 'calls not yet made at the kill').toBeLessThan(total);
  expect(first.lines.find((l) => l['t'] === 'outcome')).toBeUndefined();

  start(base('worker-1'));
  const asker = start({ ...base('worker-3'), run: RUN });
  const { outcome } = (await asker.line('outcome', 60_000)) as { outcome: SessionOutcome<string[]> };
  expect(outcome).toMatchObject({ status: 'committed', output: ['root done', 'left done', 'right done'] });

  // every call was made; those recorded before the kill exactly once
  const starts = await sql<{ issue: string; n: number }>(`SELECT issue, count(*)::int AS n FROM ${logSchema}.starts GROUP BY issue`);
  const made = new Map(starts.map((s) => [s.issue.replace(/^call /, ''), s.n]));
  for (const task of TASKS)
    for (let step = 0; step <= STEPS; step++) expect(made.get(`${task} ${step}`), `${task} ${step}`).toBeGreaterThanOrEqual(1);
  for (const call of before) expect(made.get(call), `recorded call ${call} made once`).toBe(1);
  expect(
    [...made.values()].reduce((a, b) => a + b, 0),
    'calls made again: only those in flight at the kill',
  ).toBeLessThanOrEqual(total + 3);

  // the book and blocks of the same tree run in process without a crash
  const opened = await PostgresStore.open({ url: PG_URL, schema });
  if (!opened.ok) throw new Error('the store did not open');
  try {
    const page = await opened.store.history({ limit: 1000 });
    if (!page.ok) throw new Error(page.error.message);
    const commits = page.commits.filter((c) => c.kind === 'commit');
    expect(commits.map((c) => c.sessionId)).toEqual([outcome.sessionId]);
    const rt = createRuntime();
    await rt.run(agentTree, { input: { steps: STEPS } });
    const local = await rt.history();
    if (!local.ok) throw new Error('no history');
    expect(normalise((await opened.store.load()).book, commits)).toEqual(
      normalise(
        rt.book,
        local.commits.filter((c) => c.kind === 'commit'),
      ),
    );
    await rt.close();
  } finally {
    await opened.store.close();
  }
}, 150_000);
