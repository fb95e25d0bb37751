/**
 * The checks of the kill test's tree (see treeBodies.ts), on what the workers left: the store,
 * DBOS's table of units, what the units recorded, and the log of starts and model calls the
 * bodies wrote as they ran.
 */
import { isDeepStrictEqual } from 'node:util';
import { expect } from 'vitest';
import { createRuntime } from '@cohort/runtime';
import type { SessionOutcome } from '@cohort/runtime';
import type { Store } from '@cohort/store';
import type { Kill } from './crew.ts';
import { normalise } from './normalise.ts';
import { sql } from './pg.ts';
import { labelOf, leafKind, TREE, treeRoot } from './treeBodies.ts';
import type { TreeReport } from './treeBodies.ts';

/** The limits the tree runs under, on the workers and in process: its leaves are at depth 3. */
export const TREE_LIMITS = { maxDepth: 3 } as const;

/**
 * Asserts that run `outcome` of the tree tagged `tag` left in `store` what a run without a
 * crash leaves: its root commit once, and the same book, audit blocks and ids told (the
 * root's output) as the tree run in process by `rt.run` on the same bodies, its rivals taken
 * in the order the durable run took them (which one merges first is the one thing timing decides).
 */
export async function expectCrashFreeTree(
  outcome: SessionOutcome<TreeReport>,
  tag: string,
  store: Store,
  systemDatabaseUrl: string,
): Promise<void> {
  expect(outcome.status, JSON.stringify(outcome).slice(0, 2000)).toBe('committed');
  if (outcome.status !== 'committed') return;
  const page = await store.history({ limit: 1000 });
  if (!page.ok) throw new Error(page.error.message);
  const commits = page.commits.filter((c) => c.kind === 'commit' && c.sessionId === outcome.sessionId);
  expect(commits.length, `the root commit of ${tag} reached the store once`).toBe(1);
  const book = (await store.load()).book;
  // in process the delays change nothing but when things end: the reference runs without them
  const rt = createRuntime({ limits: TREE_LIMITS });
  try {
    const local = await rt.run(treeRoot, { input: { tag, delayMs: 0, winners: winnersOf(tag, outcome.output) } });
    if (local.status !== 'committed') throw new Error(`the tree failed in process: ${local.failure.message}`);
    const history = await rt.history();
    if (!history.ok) throw new Error('no history');
    const reference = normalise(
      rt.book,
      history.commits.filter((c) => c.kind === 'commit'),
      local.output,
    );
    const got = normalise(book, commits, outcome.output);
    // when they differ, the failures the units recorded say why
    const failures = isDeepStrictEqual(got, reference) ? [] : await failuresOf(tag, systemDatabaseUrl);
    expect(got, `run ${tag} against a crash-free run; failed units: ${failures.join('\n')}`).toEqual(reference);
  } finally {
    await rt.close();
  }
}

/** The rival that merged first in each twig of a run's report (by the twig's label). */
function winnersOf(tag: string, root: TreeReport): Record<string, number> {
  const winners: Record<string, number> = {};
  root.kids.forEach((branch, b) => {
    if (typeof branch === 'string') return;
    branch.kids.forEach((twig, t) => {
      if (typeof twig !== 'string' && twig.won !== undefined) winners[labelOf(tag, [b, t])] = twig.won;
    });
  });
  return winners;
}

/** The units of run `tag` whose recorded result is a failure, with the failure's message. */
async function failuresOf(tag: string, systemDatabaseUrl: string): Promise<string[]> {
  const rows = await sql<{ id: string; output: string }>(
    `SELECT ws.workflow_uuid AS id, COALESCE(wo.output, ws.output, ws.error, '') AS output FROM dbos.workflow_status ws
     LEFT JOIN dbos.workflow_output wo ON wo.workflow_uuid = ws.workflow_uuid
     WHERE (ws.workflow_uuid = $1 OR ws.workflow_uuid LIKE $2)
       AND (COALESCE(wo.output, ws.output, '') LIKE '%{"status":"failed"%' OR ws.error IS NOT NULL) ORDER BY 1`,
    [tag, `${tag}/%`],
    systemDatabaseUrl,
  );
  return rows.map((r) => `${r.id}: ${r.output.slice(Math.max(0, r.output.indexOf('"failure"')), 600)}`);
}

/** The label (see `labelOf`) of the session unit `unitId` runs: `tree-1/0.3/0.2` → `tree-1 b2t1`. */
export function labelOfUnit(unitId: string): string {
  const [tag = '', ...keys] = unitId.split('/');
  return labelOf(
    tag,
    keys.map((k) => Number(/^0\.(\d+)$/.exec(k)?.[1]) - 1),
  );
}

/** Everything the runs `runIds` left to check: their units, the starts and calls logged, the steps recorded. */
export interface Evidence {
  readonly units: readonly { id: string; status: string; executor: string; doneMs: number }[];
  /** Each start of a session (`issue` its label) or model call (`call <label> <step>`), in time order. */
  readonly log: readonly { issue: string; executor: string; ms: number }[];
  /** Each model call recorded as a step: its log issue, and when it was recorded. */
  readonly calls: readonly { issue: string; ms: number }[];
}

/** Reads the {@link Evidence} of runs `runIds`. */
export async function evidenceOf(runIds: readonly string[], systemDatabaseUrl: string, logSchema: string): Promise<Evidence> {
  const under = `(unit = ANY($1) OR ${runIds.map((_, i) => `unit LIKE $${i + 2}`).join(' OR ')})`;
  const params = [runIds, ...runIds.map((id) => `${id}/%`)];
  const units = await sql<Evidence['units'][number]>(
    `SELECT workflow_uuid AS id, status, executor_id AS executor, updated_at::float8 AS "doneMs" FROM dbos.workflow_status
     WHERE ${under.replaceAll('unit', 'workflow_uuid')}`,
    params,
    systemDatabaseUrl,
  );
  const log = await sql<Evidence['log'][number]>(
    `SELECT issue, executor, extract(epoch FROM at)::float8 * 1000 AS ms FROM ${logSchema}.starts ORDER BY at`,
  );
  const steps = await sql<{ value: { value: { content: { type: string; toolCallId?: string; text?: string }[] } }; ms: number }>(
    `SELECT value, extract(epoch FROM at)::float8 * 1000 AS ms FROM cohort_durable.records WHERE ${under} AND key LIKE 'step:%'`,
    params,
    systemDatabaseUrl,
  );
  const calls = steps.map(({ value, ms }) => {
    const part = value.value.content[0];
    // a tool call's id is the call's; an answer starts with it (`<label>#1 <id>`)
    const id = /^(.+)#(\d+)/.exec((part?.type === 'tool-call' ? part.toolCallId : part?.text) ?? '');
    return { issue: `call ${id?.[1]} ${id?.[2]}`, ms };
  });
  return { units, log, calls };
}

/** The model calls the tree tagged `tag` makes: two for each agent leaf (those of failing twigs too). */
export function callsOfTree(tag: string): string[] {
  const calls: string[] = [];
  for (let b = 0; b < TREE.branches; b++)
    for (let t = 0; t < TREE.twigs; t++)
      for (let l = 0; l < TREE.leaves; l++) {
        const label = labelOf(tag, [b, t, l]);
        if (leafKind(t, l) === 'agent') for (const step of [0, 1]) calls.push(`call ${label} ${step}`);
      }
  return calls;
}

/**
 * Asserts that nothing recorded ran again: no session started after its unit's outcome was
 * recorded, and no model call was made after its step was recorded; every session of the
 * runs started, and every model call of theirs was made and recorded.
 */
export function expectRecordedRanOnce(evidence: Evidence, runIds: readonly string[], sessionsPerRun: number): void {
  const { units, log, calls } = evidence;
  expect(units.length, 'every session of every run is a unit').toBe(runIds.length * sessionsPerRun);
  const times = new Map<string, number[]>();
  for (const e of log) times.set(e.issue, [...(times.get(e.issue) ?? []), e.ms]);
  for (const u of units) {
    expect(u.status, `unit ${u.id}`).toBe('SUCCESS');
    const starts = times.get(labelOfUnit(u.id)) ?? [];
    expect(starts.length, `unit ${u.id} started`).toBeGreaterThanOrEqual(1);
    // DBOS stamps the outcome in whole milliseconds of the same clock
    expect(
      starts.filter((ms) => Math.floor(ms) > u.doneMs),
      `starts of ${u.id} after its outcome was recorded`,
    ).toEqual([]);
  }
  const recorded = new Map(calls.map((c) => [c.issue, c.ms]));
  expect([...recorded.keys()].sort(), 'every model call was recorded').toEqual(runIds.flatMap(callsOfTree).sort());
  for (const [issue, at] of recorded) {
    const made = times.get(issue) ?? [];
    expect(made.length, `${issue} was made`).toBeGreaterThanOrEqual(1);
    expect(
      made.filter((ms) => ms > at),
      `${issue} made again after its step was recorded`,
    ).toEqual([]);
  }
}

/** How long after a kill the server may stamp a log row its process had sent. */
const SLACK_MS = 50;

/**
 * Asserts that every repeated start of a session, and every model call made again, follows a
 * SIGKILL of the worker that made the one before it: nothing runs twice without a crash.
 * Returns how many were repeated.
 */
export function expectRepeatsFollowKills(evidence: Evidence, kills: readonly Kill[]): number {
  const byIssue = new Map<string, Evidence['log'][number][]>();
  for (const e of evidence.log) byIssue.set(e.issue, [...(byIssue.get(e.issue) ?? []), e]);
  let repeats = 0;
  for (const [issue, events] of byIssue) {
    for (let i = 1; i < events.length; i++) {
      const before = events[i - 1];
      const again = events[i];
      if (!before || !again) continue;
      repeats++;
      // a kill's time is taken just before its SIGKILL, in whole milliseconds; a log row the
      // killed process had sent may be stamped by the server a moment after it
      const killed = kills.some((k) => k.executor === before.executor && k.at >= before.ms - SLACK_MS && k.at <= again.ms);
      expect(killed, `${issue} on ${again.executor} again, with no kill of ${before.executor} since its last start`).toBe(true);
    }
  }
  return repeats;
}
