import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Skillbook } from '@cohort/skillbook';
import { addOp, makeCommit } from '@cohort/store/testing';
import { PgStores } from './utils/openPg.ts';
import { PG_URL, sql } from './utils/pgSchema.ts';
import type { ChildOptions } from './utils/runtimeChild.ts';
import { runtimeChildCommand, startRuntimeChild, verifyAcknowledged } from './utils/runtimeChildren.ts';
import type { ChildCommand, RuntimeChild } from './utils/runtimeChildren.ts';

const HOT = 'context-00001';
const stores = new PgStores();
const running: RuntimeChild[] = [];
let command: ChildCommand | null = null;

beforeAll(async () => {
  command = await runtimeChildCommand();
});
afterAll(async () => {
  for (const c of running) c.proc.kill('SIGKILL');
  await Promise.all(running.map((c) => c.closed));
  await command?.dispose();
  await stores.cleanup();
});

/** A new store holding the hot skill every session tags and some update. */
async function hotStore(prefix: string): Promise<string> {
  const schema = stores.schema(prefix);
  const seeded = makeCommit(Skillbook.empty(), [addOp('the hot skill')]).book;
  const store = await stores.open({ schema, initialBook: seeded, listen: false });
  await store.close();
  return schema;
}

function child(options: Omit<ChildOptions, 'url' | 'hot'>): RuntimeChild {
  if (!command) throw new Error('no child command');
  const c = startRuntimeChild(command, { url: PG_URL, hot: HOT, ...options });
  running.push(c);
  return c;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('PostgresStore shared by several processes, each running a runtime', () => {
  it('four processes - nested sessions adding, updating, tagging, crashing and conflicting: every acknowledged merge is there, whole, and the book is the serial replay of the commits table', async () => {
    const schema = await hotStore('four');
    const children = [1, 2, 3, 4].map((i) => child({ schema, writerId: `p${i}`, roots: 16, concurrency: 4, seed: i, updateRate: 0.15 }));
    const ends = await Promise.all(children.map((c) => c.closed));
    for (const end of ends) expect(end.code, end.stderr).toBe(0);
    const acks = children.flatMap((c) => c.acks);
    const fails = children.flatMap((c) => c.fails);
    // every process merged; sessions crashed, and conflicted on the hot skill (roots, or children in their parents)
    for (const c of children) expect(c.acks.length).toBeGreaterThan(0);
    expect(acks.length + fails.length).toBe(64);
    const kinds = [...fails.map((f) => f.kind), ...acks.flatMap((a) => a.failedBelow)];
    expect(kinds.filter((k) => k === 'crashed').length).toBeGreaterThan(0);
    expect(kinds.filter((k) => k === 'conflict').length).toBeGreaterThan(0);
    // grandchildren's work is in the acknowledged commits
    expect(acks.some((a) => a.sessions.some((s) => s.path.length === 3))).toBe(true);
    const checked = await verifyAcknowledged(PG_URL, schema, acks);
    expect(checked.commits).toBe(acks.length);
  }, 120_000);

  it('kills - SIGKILL of client processes mid-run (20 times) and pg_terminate_backend of their connections mid-transaction: no acknowledged merge is lost, nothing is half-applied', async () => {
    const schema = await hotStore('kills');
    const live = new Set<RuntimeChild>();
    const started: RuntimeChild[] = [];
    let generation = 0;
    const spawnOne = (): void => {
      generation += 1;
      const c = child({ schema, writerId: `k${generation}`, roots: 0, concurrency: 3, seed: 100 + generation });
      live.add(c);
      started.push(c);
      void c.closed.then(() => live.delete(c));
    };
    for (let i = 0; i < 3; i += 1) spawnOne();
    let terminated = 0;
    let stop = false;
    // the terminator: kills a client backend that is inside a transaction, whenever it finds one
    const terminator = (async () => {
      while (!stop) {
        const rows = await sql<{ pid: number }>(
          "SELECT pg_terminate_backend(pid) AS done, pid FROM pg_stat_activity WHERE datname = current_database() AND application_name LIKE 'cohort k%' AND application_name NOT LIKE '% listen' AND state IN ('active', 'idle in transaction') AND xact_start IS NOT NULL LIMIT 1",
        ).catch(() => []);
        terminated += rows.length;
        await sleep(rows.length > 0 ? 300 : 10);
      }
    })();
    let kills = 0;
    while (kills < 20) {
      const victim = [...live][kills % Math.max(1, live.size)];
      if (!victim) {
        await sleep(50);
        continue;
      }
      // kill it mid-run: once it has merged something (or after a while), at some moment of its work
      const seen = victim.acks.length;
      for (let waited = 0; victim.acks.length === seen && waited < 1_500; waited += 25) await sleep(25);
      await sleep((kills * 37) % 120);
      victim.proc.kill('SIGKILL');
      await victim.closed;
      kills += 1;
      spawnOne();
    }
    stop = true;
    await terminator;
    for (const c of [...live]) c.proc.kill('SIGKILL');
    await Promise.all(started.map((c) => c.closed));
    const acks = started.flatMap((c) => c.acks);
    expect(kills).toBe(20);
    expect(terminated).toBeGreaterThan(0);
    expect(acks.length).toBeGreaterThan(20);
    await verifyAcknowledged(PG_URL, schema, acks);
  }, 180_000);
});
