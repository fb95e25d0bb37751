import { describe, expect, it } from 'vitest';
import { createRuntime } from '@cohort/runtime';
import type { Session, SkillIdResult } from '@cohort/runtime';
import { MemoryStore } from '@cohort/store';
import { LEASE_SIZE, SkillIds } from '../src/internal/SkillIds.ts';
import { SpyStore } from './utils/spyStore.ts';

const add = (s: Session, issue: string): Promise<SkillIdResult> => s.tools.add_skill({ section: 'harness', issue, insight: 'x' });
const idOf = (r: SkillIdResult): string => ('ok' in r ? r.skill_id : `error: ${r.error}`);

/** A runtime over a {@link SpyStore} whose root spawns `n` children at once, child `i` running `child(s, i)`: the store, the runtime and the root's outcome. */
async function fanOut<O>(n: number, child: (s: Session, i: number) => Promise<O>) {
  const store = new SpyStore();
  const rt = createRuntime({ store });
  const outcome = await rt.run(async (root) => Promise.all(Array.from({ length: n }, (_, i) => root.spawn((s) => child(s, i)))));
  return { store, rt, outcome };
}

describe("SkillIds - final ids from the store's id leases", () => {
  it("final ids - two runtimes on one store, each root spawning a child that adds: each child's reported id holds its own skill", async () => {
    const store = new MemoryStore();
    const a = createRuntime({ store });
    const b = createRuntime({ store });
    const told = new Map<string, string>();
    const child = (issue: string) => async (s: Session) => told.set(issue, idOf(await add(s, issue)));
    // both runtimes allocate before either commits, as two processes would
    const runs = [a, b].map((rt, i) =>
      rt.run(async (root) => {
        await add(root, `root ${i}`);
        await root.spawn(child(`child ${i}`));
      }),
    );
    for (const outcome of await Promise.all(runs)) expect(outcome.status).toBe('committed');
    const book = (await store.load()).book;
    expect(book.size).toBe(4);
    for (const [issue, id] of told) expect(book.get(id)?.issue).toBe(issue);
    for (const outcome of await Promise.all(runs)) {
      if (outcome.status !== 'committed') continue;
      for (const id of outcome.added) expect(book.has(id)).toBe(true);
    }
    await Promise.all([a.close(), b.close()]);
  });

  it("leases - ids come from the store's lease and every root commit says so (allocation leased: never renumbered)", async () => {
    const store = new SpyStore();
    store.lease = async (count) => ({ ok: true, lease: { from: 500, to: 500 + count } });
    const rt = createRuntime({ store });
    const outcome = await rt.run(async (s) => idOf(await add(s, 'leased')));
    expect(outcome).toMatchObject({ status: 'committed', output: 'harness-00500' });
    expect(store.leases[0]).toBe(LEASE_SIZE.first);
    expect(store.commits.map((c) => c.allocation)).toEqual(['leased']);
    await rt.close();
  });

  it('ids - an allocated id the session holds already (it named it) is skipped, by add_skill and by a batch', async () => {
    const store = new SpyStore();
    store.lease = async (count) => ({ ok: true, lease: { from: 500, to: 500 + count } });
    const rt = createRuntime({ store });
    const named = (s: Session, n: number) =>
      s.tools.add_skill({ section: 'harness', issue: `named ${n}`, insight: 'x', skill_id: `harness-00${n}` });
    const outcome = await rt.run(async (s) => {
      await named(s, 500);
      await named(s, 502);
      const tool = [idOf(await add(s, 'a')), idOf(await add(s, 'b'))];
      await named(s, 505);
      const batch = s.applyBatch({
        operations: [
          { type: 'ADD', section: 'harness', issue: 'c' },
          { type: 'ADD', section: 'harness', issue: 'd' },
        ],
      });
      return { tool, batch: batch.ok ? batch.applied.map((op) => op.skill_id) : batch.error.message, next: idOf(await add(s, 'e')) };
    });
    expect(outcome).toMatchObject({
      status: 'committed',
      output: { tool: ['harness-00501', 'harness-00503'], batch: ['harness-00504', 'harness-00506'], next: 'harness-00507' },
    });
    await rt.close();
  });

  it('leases - a burst of add_skill calls past the lease waits for the next one: every add gets its own id', async () => {
    const n = LEASE_SIZE.first * 8;
    // every child adds in the same synchronous stretch, before any lease can arrive
    const { store, rt, outcome } = await fanOut(n, async (s, i) => idOf(await add(s, `burst ${i}`)));
    if (outcome.status !== 'committed') throw new Error(outcome.failure.message);
    const ids = outcome.output.map((o) => (o.status === 'committed' ? o.output : 'failed'));
    expect(new Set(ids).size).toBe(n);
    for (const [i, id] of ids.entries()) expect(rt.book.get(id)?.issue).toBe(`burst ${i}`);
    // leases grew with the pace: a handful of requests, not one per add
    expect(store.leases.length).toBeLessThanOrEqual(6);
    await rt.close();
  });

  it('leases - a fan-out whose children add in rounds grows its leases to the round: a few requests, not one per round', async () => {
    const children = LEASE_SIZE.first * 16;
    const { store, rt, outcome } = await fanOut(children, async (s, i) => {
      for (let j = 0; j < 5; j++) await add(s, `round ${j} of ${i}`);
    });
    expect(outcome.status).toBe('committed');
    expect(rt.book.size).toBe(children * 5);
    // the first round waits once, and its lease grows to cover the round: the next rounds are
    // fetched ahead (leases that only doubled took 11 requests here)
    expect(store.leases.length).toBeLessThanOrEqual(6);
    await rt.close();
  });

  it('leases - a batch whose ADDs outrun the lease is refused whole (ids_unavailable) and goes through after an await', async () => {
    const rt = createRuntime();
    const outcome = await rt.run(async (s) => {
      const batch = {
        operations: Array.from({ length: LEASE_SIZE.first + 1 }, (_, i) => ({ type: 'ADD', section: 'harness', issue: `bulk ${i}` })),
      };
      const first = s.applyBatch(batch);
      const sizeAfterRefusal = s.book.size;
      await new Promise((resolve) => setImmediate(resolve));
      return { first, sizeAfterRefusal, second: s.applyBatch(batch) };
    });
    if (outcome.status !== 'committed') throw new Error(outcome.failure.message);
    expect(outcome.output.first).toMatchObject({ ok: false, error: { code: 'ids_unavailable' } });
    expect(outcome.output.sizeAfterRefusal).toBe(0);
    expect(outcome.output.second.ok).toBe(true);
    expect(rt.book.size).toBe(LEASE_SIZE.first + 1);
    await rt.close();
  });

  it('leases - a store that grants none: add_skill resolves to an error and a batch is refused, other tools work; nothing hangs; adds work once it grants again', async () => {
    const store = new SpyStore(new MemoryStore());
    let grant = false;
    store.lease = async (count) => (grant ? store.inner.leaseIds(count) : { ok: false, error: { code: 'io', message: 'disk full' } });
    const rt = createRuntime({ store });
    const refused = await rt.run(async (s) => ({
      tool: await add(s, 'refused'),
      batch: s.applyBatch({ operations: [{ type: 'ADD', section: 'harness', issue: 'refused too' }] }),
      explicit: await s.tools.add_skill({ section: 'harness', issue: 'chosen id', skill_id: 'chosen-1' }),
    }));
    expect(refused).toMatchObject({
      status: 'committed',
      output: {
        tool: { error: expect.stringContaining('disk full') },
        batch: { ok: false, error: { code: 'ids_unavailable' } },
        explicit: { ok: true, skill_id: 'chosen-1' },
      },
    });
    expect([...rt.book.skills()].map((k) => k.id)).toEqual(['chosen-1']);
    grant = true;
    const later = await rt.run(async (s) => idOf(await add(s, 'granted')));
    expect(later.status === 'committed' && rt.book.get(later.output)?.issue).toBe('granted');
    await rt.close();
  });

  it('leases - a store whose leaseIds throws is an error value too, not a rejection or a hang', async () => {
    const store = new SpyStore();
    store.lease = () => Promise.reject(new Error('adapter bug'));
    const rt = createRuntime({ store });
    const outcome = await rt.run(async (s) => add(s, 'x'));
    expect(outcome).toMatchObject({ status: 'committed', output: { error: expect.stringContaining('adapter bug') } });
    await rt.close();
  });

  it('ids - an add_skill that waits for a lease while its session finishes is refused, and nothing of it is applied', async () => {
    const store = new SpyStore();
    let grant = (): void => undefined;
    // the first lease is empty: the add waits for the second, which comes when the test says
    store.lease = (count) =>
      store.leases.length === 1
        ? Promise.resolve({ ok: true, lease: { from: 1, to: 1 } })
        : new Promise((resolve) => (grant = () => resolve({ ok: true, lease: { from: 1, to: 1 + count } })));
    const rt = createRuntime({ store });
    let waiting: Promise<SkillIdResult> | null = null;
    const outcome = await rt.run(async (s) => {
      waiting = add(s, 'too late');
      return 'done without waiting';
    });
    expect(outcome.status).toBe('committed');
    grant();
    expect(await waiting).toEqual({ error: expect.stringMatching(/has (ended|finished its body); the call was not applied/) });
    expect(rt.book.size).toBe(0);
    await rt.close();
  });

  it("ids - allocate hands out a lease's ids in order, answers null when none is left and asks for a larger lease", async () => {
    const asked: number[] = [];
    const ids = new SkillIds({ leaseIds: async (count) => (asked.push(count), { ok: true, lease: { from: 10, to: 12 } }) });
    expect(await ids.start()).toBeNull();
    expect([ids.allocate('harness'), ids.allocate('context'), ids.allocate('harness')]).toEqual(['harness-00010', 'context-00011', null]);
    expect(asked).toEqual([LEASE_SIZE.first, LEASE_SIZE.first * 2]);
    expect(ids.whenAvailable(1)).not.toBeNull();
  });
});
