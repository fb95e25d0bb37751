import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntime } from '@cohort/runtime';
import type { PersistedCommit } from '@cohort/store';
import { PostgresStore } from '@cohort/store-postgres';
import { isDurableError, openDurable } from '../src/index.ts';
import type { Durable } from '../src/index.ts';
import { deeper, fanOut, rivals, testBodies, tree, writer } from './utils/bodies.ts';
import type { RegisteredBody } from '../src/index.ts';
import { normalise } from './utils/normalise.ts';
import { unitsOf } from './utils/crashFree.ts';
import { PG_URL, databaseUrl, dropTestData, freshName } from './utils/pg.ts';

const database = freshName('cohort_dbos_test');
const schema = freshName('durable');
let store: PostgresStore;
let durable: Durable;
const runs = new Map<string, number>();
/** One level deeper than the default, so that a tree crosses three units before the limit. */
const LIMITS = { maxDepth: 3 };

async function history(s: PostgresStore): Promise<PersistedCommit[]> {
  const page = await s.history({ limit: 1000 });
  if (!page.ok) throw new Error(page.error.message);
  return page.commits.filter((c) => c.kind === 'commit');
}

beforeAll(async () => {
  const opened = await PostgresStore.open({ url: PG_URL, schema });
  if (!opened.ok) throw new Error('the store did not open');
  store = opened.store;
  const bodies = {
    ...testBodies,
    // counts its runs: a recorded child never runs twice
    counted: async (s: Parameters<typeof writer>[0]) => {
      runs.set(s.input.issue, (runs.get(s.input.issue) ?? 0) + 1);
      return writer(s);
    },
    sendsADate: async (s: Parameters<typeof writer>[0]) => s.spawn(writer, { input: { issue: 'x', at: new Date() } as never }),
    returnsAMap: async () => new Map([[1, 2]]),
  };
  const systemDatabaseUrl = databaseUrl(database);
  durable = await openDurable({ systemDatabaseUrl, store, bodies, executorId: 'test-1', pollingIntervalMs: 50, limits: LIMITS });
});

/** Runs `body` durably and in process; the normalised book and blocks of the run's commit, both ways. */
async function bothWays(body: RegisteredBody, input: unknown, id: string) {
  const outcome = await durable.run(body, input, { id });
  const commits = (await history(store)).filter((c) => c.sessionId === outcome.sessionId);
  const rt = createRuntime({ limits: LIMITS });
  const local = await rt.run(body, { input: input as never });
  const localHistory = await rt.history();
  await rt.close();
  if (!localHistory.ok) throw new Error('no history');
  return {
    outcome,
    local,
    durable: normalise(store.current()?.book ?? rt.book, commits),
    inProcess: normalise(
      rt.book,
      localHistory.commits.filter((c) => c.kind === 'commit'),
    ),
  };
}

afterAll(async () => {
  await durable?.close();
  await store?.close();
  await dropTestData(database, schema);
});

describe('durable.run', () => {
  it("fans out to child units whose commits land as an in-process run's would: the same book, the same blocks", async () => {
    const outcome = await durable.run(fanOut, { children: 3, crash: true }, { id: 'fan-out-1' });
    expect(outcome.status).toBe('committed');
    if (outcome.status !== 'committed') return;
    expect(outcome.output).toMatchObject({ statuses: ['committed', 'committed', 'committed', 'committed', 'failed'] });
    const told = (outcome.output as { told: string[] }).told;
    // the ids told are the ids the skills have in the store's book
    for (const id of told) expect(store.current()?.book.get(id), id).toBeDefined();
    expect(outcome.added).toEqual(expect.arrayContaining(told));
    expect(store.current()?.book.get(told[0] ?? '')?.helpful_count).toBe(3);
    expect([...(store.current()?.book.skills() ?? [])].map((s) => s.issue)).not.toContain('crashed child');

    const rt = createRuntime();
    const local = await rt.run(fanOut, { input: { children: 3, crash: true } });
    // the crashed child unit's failure value is the one an in-process child's crash gives
    expect(local).toMatchObject({ status: 'committed', output: { failures: [{ kind: 'crashed', discarded: 1 }] } });
    expect(outcome.output).toMatchObject({ failures: local.status === 'committed' ? local.output.failures : [] });
    const localHistory = await rt.history();
    if (!localHistory.ok) throw new Error('no history');
    const durableRun = normalise(store.current()?.book ?? rt.book, await history(store));
    // one commit, one block per session: the root's, and each child's under the root's path
    const [commit] = await history(store);
    expect(commit?.sessionId).toBe(outcome.sessionId);
    expect(commit?.entries.map((b) => [b.name ?? null, b.path.length, b.path[0]])).toEqual(
      expect.arrayContaining([
        [null, 1, outcome.sessionId],
        ['local', 2, outcome.sessionId],
        ['writer 0', 2, outcome.sessionId],
        ['writer 2', 2, outcome.sessionId],
      ]),
    );
    expect(durableRun.blocks).toHaveLength(5);
    expect(durableRun).toEqual(
      normalise(
        rt.book,
        localHistory.commits.filter((c) => c.kind === 'commit'),
      ),
    );
    await rt.close();
  });

  it('is idempotent by id: the second call returns the first outcome and runs nothing', async () => {
    const first = await durable.run('fanOut', { children: 0 }, { id: 'once' });
    const revision = store.current()?.revision;
    const again = await durable.run('fanOut', { children: 0 }, { id: 'once' });
    expect(again).toEqual(first);
    expect(store.current()?.revision).toBe(revision);
  });

  it('never runs a recorded child again: the same run id twice runs each child once', async () => {
    const a = await durable.run('counted', { issue: 'counted once' }, { id: 'counted-1' });
    const b = await durable.run('counted', { issue: 'counted once' }, { id: 'counted-1' });
    expect(a.status).toBe('committed');
    expect(b).toEqual(a);
    expect(runs.get('counted once')).toBe(1);
  });
});

describe('child units', () => {
  it("a child unit spawns child units of its own, itself and from an in-process child: each sees its parent's draft", async () => {
    const run = await bothWays(tree, {}, 'nested-1');
    expect(run.outcome).toMatchObject({ status: 'committed', output: ['committed', 'committed'] });
    expect(run.durable).toEqual(run.inProcess);
    expect(run.durable.skills).toContainEqual(expect.stringContaining('nested parent / written by a child unit +2'));
    expect(run.durable.blocks).toEqual([
      'grandchild depth 2: ADD id1, TAG id2',
      'great-grandchild depth 3: ADD id3, TAG id2',
      'nested depth 1: ADD id2',
    ]);
  });

  it("the depth limit counts from the run's root across units: a child unit's spawn past maxDepth is refused, as in process", async () => {
    const run = await bothWays(deeper, {}, 'deeper-1');
    expect(run.outcome).toMatchObject({ status: 'committed', output: ['committed', 'failed'] });
    expect(run.local).toMatchObject({ status: 'committed', output: ['committed', 'failed'] });
    expect(run.durable).toEqual(run.inProcess);
  });

  it('two child units that rewrite one skill: the first merged wins, the other is rejected as a conflict, as in process', async () => {
    const run = await bothWays(rivals, {}, 'rivals-1');
    expect(run.outcome).toMatchObject({ status: 'committed', output: ['committed', 'conflict'] });
    expect(run.local).toMatchObject({ status: 'committed', output: ['committed', 'conflict'] });
    expect(run.durable).toEqual(run.inProcess);
  });
});

describe('bad input', () => {
  it('an unregistered body is refused with DURABLE_UNREGISTERED_BODY, naming the registered ones', async () => {
    const err: unknown = await durable.run('nobody', {}, { id: 'bad-1' }).catch((e: unknown) => e);
    expect(isDurableError(err) && err.code).toBe('DURABLE_UNREGISTERED_BODY');
    expect(String(err)).toContain('fanOut');
    const fn = await durable.run(async () => 1, {}, { id: 'bad-2' }).catch((e: unknown) => e);
    expect(isDurableError(fn) && fn.code).toBe('DURABLE_UNREGISTERED_BODY');
  });

  it('an input that cannot be recorded is refused with DURABLE_UNSERIALISABLE, naming where', async () => {
    const err: unknown = await durable.run('fanOut', { children: 1, at: new Date() }, { id: 'bad-3' }).catch((e: unknown) => e);
    expect(isDurableError(err) && err.code).toBe('DURABLE_UNSERIALISABLE');
    expect(String(err)).toContain('input.at: a Date');
  });

  it('a bad run id is refused with DURABLE_INVALID_OPTIONS', async () => {
    const err: unknown = await durable.run('fanOut', { children: 0 }, { id: 'a/b' }).catch((e: unknown) => e);
    expect(isDurableError(err) && err.code).toBe('DURABLE_INVALID_OPTIONS');
  });

  it('a spawn whose input cannot be recorded fails as a crash, and the output a body cannot record fails its session', async () => {
    const spawned = await durable.run('sendsADate', { issue: 'x' }, { id: 'bad-4' });
    expect(spawned.status).toBe('committed');
    const crash = (text: string) => ({ status: 'failed', failure: { kind: 'crashed', message: expect.stringContaining(text) as string } });
    if (spawned.status === 'committed') expect(spawned.output).toMatchObject(crash('input.at: a Date'));
    const returned = await durable.run('returnsAMap', {}, { id: 'bad-5' });
    expect(returned).toMatchObject({ status: 'failed', failure: { kind: 'crashed', message: expect.stringContaining('output: a Map') } });
  });

  it('a child unit that fails arrives as a failure value with its cause chain', async () => {
    const outcome = await durable.run('spawnsFailing', null, { id: 'cause-1' });
    expect(outcome).toMatchObject({
      status: 'committed',
      output: {
        kind: 'crashed',
        message: expect.stringContaining('refused by the service') as string,
        error: { message: 'refused by the service', cause: { message: 'connection reset', code: 'ECONNRESET' } },
      },
    });
  });

  it("a root's timeout fails it as timeout and cancels its children units wherever they run", async () => {
    const outcome = await durable.run('sleepers', { children: 2, ms: 120_000 }, { id: 'timeout-1', timeoutMs: 1_500 });
    expect(outcome).toMatchObject({ status: 'failed', failure: { kind: 'timeout' } });
    let children: string[] = [];
    for (const end = Date.now() + 20_000; Date.now() < end; await new Promise((r) => setTimeout(r, 50))) {
      children = (await unitsOf('timeout-1', databaseUrl(database))).filter((u) => u.id !== 'timeout-1').map((u) => u.status);
      if (children.length === 2 && children.every((s) => s === 'CANCELLED')) break;
    }
    expect(children).toEqual(['CANCELLED', 'CANCELLED']);
  });

  it('cancelling a finished run changes nothing: the same id still gives its outcome', async () => {
    const first = await durable.run('writer', { issue: 'finished before the cancel' }, { id: 'done-then-cancel' });
    expect(first.status).toBe('committed');
    await durable.cancel('done-then-cancel');
    expect(await durable.run('writer', { issue: 'finished before the cancel' }, { id: 'done-then-cancel' })).toEqual(first);
  });
});
