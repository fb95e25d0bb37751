import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Session } from '@cohort/runtime';
import { openDurable } from '@cohort/durable';
import type { Durable } from '@cohort/durable';
import { PostgresStore } from '@cohort/store-postgres';
import { databaseUrl, dropTestData, freshName, PG_URL } from '../../durable/test/utils/pg.ts';
import { runCohort } from './utils/runCohort.ts';

const database = freshName('cli_dbos');
const schema = freshName('cli_runs');
const systemDatabaseUrl = databaseUrl(database);
let durable: Durable | undefined;
let store: PostgresStore | undefined;

async function learn(s: Session<{ issue: string }>): Promise<string> {
  const added = await s.tools.add_skill({ section: 'harness', issue: s.input.issue, insight: 'learned on a worker' });
  return 'error' in added ? added.error : added.skill_id;
}

async function survey(s: Session<{ issues: string[] }>): Promise<string[]> {
  const outcomes = await Promise.all(s.input.issues.map((issue) => s.spawn(learn, { input: { issue }, name: issue })));
  return outcomes.map((o) => o.status);
}

beforeAll(async () => {
  const opened = await PostgresStore.open({ url: PG_URL, schema });
  if (!opened.ok) throw new Error('the store did not open');
  store = opened.store;
  durable = await openDurable({ systemDatabaseUrl, store, bodies: { learn, survey }, executorId: 'cli-worker', pollingIntervalMs: 50 });
  const outcome = await durable.run(survey, { issues: ['flaky API', 'slow disk'] }, { id: 'survey-1' });
  if (outcome.status !== 'committed') throw new Error(JSON.stringify(outcome));
}, 60_000);

afterAll(async () => {
  await durable?.close();
  await store?.close();
  await dropTestData(database, schema);
});

describe('cohort runs', () => {
  it('list: each run with its status, outcome and worker; the workers and their heartbeats', async () => {
    const run = await runCohort(['runs', 'list', systemDatabaseUrl, '--json']);
    expect(run.code, run.err).toBe(0);
    const listed = JSON.parse(run.out) as { runs: unknown[]; workers: unknown[] };
    expect(listed.runs).toEqual([
      expect.objectContaining({
        id: 'survey-1',
        body: 'survey',
        status: 'SUCCESS',
        outcome: 'committed',
        executor: 'cli-worker',
        applicationVersion: 'cohort',
      }),
    ]);
    expect(listed.workers).toEqual([expect.objectContaining({ executor: 'cli-worker', adoptedBy: null })]);
    const text = await runCohort(['runs', 'list', systemDatabaseUrl]);
    expect(text.out).toMatch(/survey-1\s+survey\s+SUCCESS\s+committed\s+cli-worker/);
  });

  it('show: every unit of the tree, the worker that ran it and each start', async () => {
    const run = await runCohort(['runs', 'show', systemDatabaseUrl, 'survey-1', '--json']);
    expect(run.code, run.err).toBe(0);
    const shown = JSON.parse(run.out) as {
      units: { id: string; name: string | null; body: string; parent: string | null; starts: { executor: string }[] }[];
    };
    expect(shown.units.map((u) => [u.id, u.parent, u.body, u.name, u.starts.map((s) => s.executor)])).toEqual([
      ['survey-1', null, 'survey', null, ['cli-worker']],
      ['survey-1/0.1', 'survey-1', 'learn', 'flaky API', ['cli-worker']],
      ['survey-1/0.2', 'survey-1', 'learn', 'slow disk', ['cli-worker']],
    ]);
    const text = await runCohort(['runs', 'show', systemDatabaseUrl, 'survey-1']);
    expect(text.out).toContain('run survey-1: survey, SUCCESS (committed)');
    expect(text.out).toMatch(/survey-1\/0\.2\s+slow disk\s+SUCCESS\s+committed\s+cli-worker/);
  });

  it('a run that does not exist, a database that cannot be read: exit 1, one JSON error with --json; a bad URL or id: exit 2', async () => {
    const missing = await runCohort(['runs', 'show', systemDatabaseUrl, 'nope', '--json']);
    expect(missing.code).toBe(1);
    expect(JSON.parse(missing.out)).toMatchObject({
      ok: false,
      exitCode: 1,
      error: expect.stringContaining('no durable run has id "nope"'),
    });
    const absent = databaseUrl(freshName('cli_absent'));
    const unreadable = await runCohort(['runs', 'list', absent, '--json']);
    expect(unreadable.code).toBe(1);
    expect(JSON.parse(unreadable.out)).toMatchObject({ ok: false, error: expect.stringContaining('cannot be read') });
    expect((await runCohort(['runs', 'list', 'not-a-url'])).code).toBe(2);
    expect((await runCohort(['runs', 'show', systemDatabaseUrl, 'a/b'])).code).toBe(2);
  });
});
