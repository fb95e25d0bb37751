import { describe, expect, it } from 'vitest';
import { createRuntime } from '@cohort/runtime';
import type { Session } from '@cohort/runtime';
import { MemoryStore } from '@cohort/store';
import type { AppendResult, CommitRecord } from '@cohort/store';
import { DelegatingStore } from '@cohort/store/adapter';
import { Skillbook } from '@cohort/skillbook';

/** A store whose appends wait until the test releases them. */
class GatedStore extends DelegatingStore {
  readonly waiting: { commit: CommitRecord; release: () => void }[] = [];
  constructor(initial = Skillbook.empty()) {
    super(new MemoryStore(initial));
  }
  override append(commit: CommitRecord): Promise<AppendResult> {
    return new Promise((resolve) => {
      this.waiting.push({ commit, release: () => resolve(this.inner.append(commit)) });
    });
  }
}

const tick = () => new Promise((r) => setTimeout(r, 1));

describe('durable merges at the root', () => {
  it('acknowledges a root merge only after the store made it durable', async () => {
    const store = new GatedStore();
    const rt = createRuntime({ store });
    let settled = false;
    const run = rt
      .run(async (s) => {
        await s.tools.add_skill({ section: 'harness', issue: 'x', insight: 'y' });
      })
      .then((o) => ((settled = true), o));
    while (store.waiting.length === 0) await tick();
    await tick();
    expect(settled).toBe(false);
    expect(rt.book.size).toBe(0);
    store.waiting[0]?.release();
    expect((await run).status).toBe('committed');
    expect(rt.book.size).toBe(1);
    expect(rt.revision).toBe(1);
  });

  it('holds commits back when the merge queue is full, and merges them all in order', async () => {
    const store = new GatedStore();
    const rt = createRuntime({ store, limits: { maxMergeQueue: 2 } });
    const pressure: string[] = [];
    rt.events$.subscribe((e) => e.type === 'merge.backpressure' && pressure.push(e.sessionId));
    const runs = Array.from({ length: 5 }, (_, i) =>
      rt.run(async (s) => {
        await s.tools.add_skill({ section: 'harness', issue: `root ${i}`, insight: 'y' });
      }),
    );
    while (store.waiting.length < 2) await tick();
    await tick();
    expect(store.waiting).toHaveLength(2);
    expect(pressure).toHaveLength(3);
    while (store.waiting.length > 0 || (await Promise.race([Promise.all(runs).then(() => false), tick().then(() => true)]))) {
      store.waiting.shift()?.release();
      await tick();
    }
    const outcomes = await Promise.all(runs);
    expect(outcomes.every((o) => o.status === 'committed')).toBe(true);
    expect([...rt.book.skills()].map((s) => s.issue).sort()).toEqual(['root 0', 'root 1', 'root 2', 'root 3', 'root 4']);
    expect(rt.audit.map((e) => e.revision)).toEqual([1, 2, 3, 4, 5]);
  });

  it('decides a merge against the merges still on their way to the store', async () => {
    const seeded = Skillbook.empty().applyBatch({ operations: [{ type: 'ADD', section: 'harness', issue: 'shared', insight: 'v0' }] });
    if (!seeded.ok) throw new Error(seeded.error.message);
    const store = new GatedStore(seeded.book);
    const rt = createRuntime({ store });
    const first = rt.run(async (s) => {
      await s.tools.update_skill({ skill_id: 'harness-00001', insight: 'first' });
    });
    const second = rt.run(async (s) => {
      // started on the durable book; writes once the first commit is on its way
      while (store.waiting.length === 0) await tick();
      await s.tools.update_skill({ skill_id: 'harness-00001', insight: 'second' });
    });
    const refused = await second;
    expect(refused).toMatchObject({
      status: 'failed',
      failure: { kind: 'conflict', conflicts: [{ skillId: 'harness-00001', reason: 'content_changed' }] },
    });
    // refused by the runtime itself: the store never saw it
    expect(store.waiting).toHaveLength(1);
    store.waiting[0]?.release();
    expect((await first).status).toBe('committed');
    expect(rt.book.get('harness-00001')?.insight).toBe('first');
  });
});

describe('store failures are failure values', () => {
  it('a store that cannot load fails every run with a crash, never a rejection', async () => {
    const store = new GatedStore();
    store.load = () => Promise.reject(new Error('document unreadable'));
    const rt = createRuntime({ store });
    const outcome = await rt.run(async () => 'never runs');
    expect(outcome).toMatchObject({ status: 'failed', failure: { kind: 'crashed', error: { message: 'document unreadable' } } });
  });

  it('an append the store refuses fails the session and leaves the book as it was', async () => {
    const store = new GatedStore();
    store.append = async () => ({ ok: false, error: { code: 'io', message: 'fsync failed', cause: new Error('EIO') } });
    const rt = createRuntime({ store });
    const outcome = await rt.run(async (s) => {
      await s.tools.add_skill({ section: 'harness', issue: 'x', insight: 'y' });
    });
    expect(outcome).toMatchObject({
      status: 'failed',
      failure: { kind: 'crashed', discarded: { ops: 1 }, error: { name: 'StoreError', code: 'io', cause: { message: 'EIO' } } },
    });
    expect(rt.book.size).toBe(0);
    expect(rt.audit).toEqual([]);
    // the next commit is decided against the durable book again
    store.append = (commit) => store.inner.append(commit);
    const next = await rt.run(async (s) => s.tools.add_skill({ section: 'harness', issue: 'x', insight: 'y' }));
    expect(next.status).toBe('committed');
    expect(rt.book.size).toBe(1);
  });
});

describe('ids at the root, with another writer on the same store', () => {
  /** Runs `write` in a session of `b` that started before `a` committed an ADD of its own. */
  async function raceWith(write: (s: Session, taken: string) => Promise<unknown>) {
    const store = new MemoryStore(Skillbook.empty());
    const a = createRuntime({ store });
    const b = createRuntime({ store });
    await a.ready;
    await b.ready;
    let taken = '';
    const outcome = await b.run(async (s) => {
      const first = await a.run(async (t) => t.tools.add_skill({ section: 'harness', issue: 'from a', insight: 'x' }));
      if (first.status !== 'committed') throw new Error('a did not commit');
      taken = first.added[0] ?? '';
      await write(s, taken);
    });
    const book = (await store.load()).book;
    await a.close();
    await b.close();
    return { outcome, taken, skills: [...book.skills()].map((k) => [k.id, k.issue]) };
  }

  it('renumbers an id it allocated that another writer took meanwhile', async () => {
    const { outcome, taken, skills } = await raceWith((s) => s.tools.add_skill({ section: 'harness', issue: 'from b', insight: 'x' }));
    expect(outcome.status).toBe('committed');
    if (outcome.status !== 'committed') return;
    expect(outcome.added).toHaveLength(1);
    expect(outcome.added[0]).not.toBe(taken);
    expect(skills).toEqual([
      [taken, 'from a'],
      [outcome.added[0], 'from b'],
    ]);
  });

  it('refuses, never renumbers, an id the session chose itself', async () => {
    const { outcome, taken, skills } = await raceWith((s, id) =>
      s.tools.add_skill({ section: 'harness', issue: 'chosen', insight: 'x', skill_id: id }),
    );
    expect(outcome.status).toBe('failed');
    expect(skills).toEqual([[taken, 'from a']]);
  });
});
