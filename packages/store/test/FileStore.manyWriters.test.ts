import { describe, expect, it } from 'vitest';
import { Skillbook } from '@cohort/skillbook';
import { SimFs, inspectBook, replayHistory } from '@cohort/store';
import type { FileStore, IdLease } from '@cohort/store';
import { addOp, leaseAllocator, makeCommit, readHistory } from '@cohort/store/testing';
import { DOC, collect, openSim } from './utils/simStore.ts';

/** The skills in id order (history reproduces every skill, not the document's order of them). */
const sorted = (book: Skillbook) => [...book.skills()].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));

async function lease(store: FileStore, count: number): Promise<IdLease> {
  const r = await store.leaseIds(count);
  if (!r.ok) throw new Error(r.error.message);
  return r.lease;
}

/** Another program saving `book` plus `operations` into the document (ACE's `save_to_file`). */
function aceSave(sim: SimFs, book: Skillbook, operations: readonly Record<string, unknown>[]): Skillbook {
  const r = book.applyBatch({ operations }, { clock: { now: () => Date.UTC(2026, 5, 1) } });
  if (!r.ok) throw new Error(r.error.message);
  sim.write(DOC, r.book.toJSON());
  return r.book;
}

describe('FileStore with many writers', () => {
  it('leases - two processes on one document are never granted one number twice, nor after a restart', async () => {
    const sim = new SimFs();
    const { store: a } = await openSim(sim, { writerId: 'a' });
    const { store: b } = await openSim(sim, { writerId: 'b' });
    const granted = [await lease(a, 10), await lease(b, 10), await lease(a, 5), await lease(b, 5)];
    await a.close();
    await b.close();
    const { store: c } = await openSim(sim, { writerId: 'c' });
    granted.push(await lease(c, 10));
    const numbers = granted.flatMap((l) => Array.from({ length: l.to - l.from }, (_, i) => l.from + i));
    expect(new Set(numbers).size).toBe(numbers.length);
    // the document tells ACE to allocate past every lease
    await c.close();
    expect(Skillbook.fromJSON(sim.readText(DOC) ?? '').nextId).toBeGreaterThanOrEqual(Math.max(...numbers));
  });

  it("final ids - two writers each adding a skill with a leased id: each id holds its own writer's skill", async () => {
    const sim = new SimFs();
    const { store: a } = await openSim(sim, { writerId: 'a' });
    const { store: b } = await openSim(sim, { writerId: 'b' });
    const idsA = leaseAllocator(await lease(a, 4));
    const idsB = leaseAllocator(await lease(b, 4));
    const fromB = makeCommit(b.book, [addOp('from b', 'harness')], { ids: idsB, allocation: 'leased', sessionId: 'b1' });
    const fromA = makeCommit(a.book, [addOp('from a', 'harness')], { ids: idsA, allocation: 'leased', sessionId: 'a1' });
    const rb = await b.append(fromB.commit);
    const ra = await a.append(fromA.commit);
    expect(rb.ok && ra.ok).toBe(true);
    expect(ra.ok ? ra.idMap : 'refused').toBeUndefined();
    const book = (await b.load()).book;
    expect(book.get(fromA.ops[0]?.skill_id ?? '')?.issue).toBe('from a');
    expect(book.get(fromB.ops[0]?.skill_id ?? '')?.issue).toBe('from b');
    await a.close();
    await b.close();
  });

  it('external writer - a newcomer ACE put in a lease is renumbered once, with a notice; saved again it lands on the same id', async () => {
    const sim = new SimFs();
    const { store } = await openSim(sim, { checkpointEvery: 1000 });
    const seen = collect(store);
    // ACE loads the document before the lease, so it allocates from a stale next_id
    const aceBook = Skillbook.fromJSON(sim.readText(DOC) ?? '');
    const granted = await lease(store, 10);
    await store.checkpoint();
    const saved = aceSave(sim, aceBook, [{ type: 'ADD', section: 'context', issue: 'ace newcomer', insight: 'x' }]);
    expect(granted.from).toBe(1);
    expect(saved.get('context-00001')?.issue).toBe('ace newcomer');
    await store.load();
    const moved = [...store.book.skills()].find((s) => s.issue === 'ace newcomer');
    expect(Number(moved?.id.split('-')[1])).toBeGreaterThanOrEqual(granted.to);
    expect(store.book.get('context-00001')).toBeUndefined();
    const remaps = () => seen.filter((n) => n.type === 'store.ids_remapped' && n.sessionId === 'external');
    expect(remaps()).toMatchObject([{ idMap: { 'context-00001': moved?.id } }]);
    // ACE saves again from its own memory: the same skill, and one more
    aceSave(sim, saved, [{ type: 'TAG', skill_id: 'context-00001', metadata: { delta: 1 } }]);
    await store.load();
    expect(store.book.get(moved?.id ?? '')?.helpful_count).toBe(1);
    expect([...store.book.skills()].filter((s) => s.issue === 'ace newcomer')).toHaveLength(1);
    expect(remaps()).toHaveLength(1);
    // the history holds what was taken in, and replays to the book
    const replayed = replayHistory(await readHistory(store));
    expect(replayed.ok && sorted(replayed.book)).toEqual(sorted(store.book));
    await store.close();
    expect((await inspectBook(DOC, { fs: sim.mount() })).findings.filter((f) => f.severity !== 'info')).toEqual([]);
  });

  it("history - a reopened store reads back every writer's commits, and cohort book verify replays them", async () => {
    const sim = new SimFs();
    const { store: a } = await openSim(sim, { writerId: 'a' });
    const { store: b } = await openSim(sim, { writerId: 'b' });
    for (let i = 0; i < 3; i += 1) {
      await a.append(makeCommit((await a.load()).book, [addOp(`a${i}`)], { sessionId: `a.${i}`, basis: 'store' }).commit);
      await b.append(makeCommit((await b.load()).book, [addOp(`b${i}`)], { sessionId: `b.${i}`, basis: 'store' }).commit);
    }
    await a.close();
    await b.close();
    const { store } = await openSim(sim);
    const commits = await readHistory(store);
    expect(commits.map((c) => [c.writerId, c.sessionId])).toEqual([
      ['a', 'a.0'],
      ['b', 'b.0'],
      ['a', 'a.1'],
      ['b', 'b.1'],
      ['a', 'a.2'],
      ['b', 'b.2'],
    ]);
    await store.close();
    const report = await inspectBook(DOC, { fs: sim.mount() });
    expect(report.ok).toBe(true);
    expect(report.findings.filter((f) => f.code.startsWith('history'))).toEqual([]);
  });

  it('interrupted checkpoint - a reconciliation that died before its commit point is cut on open and done again', async () => {
    const sim = new SimFs({ seed: 5 });
    const { store } = await openSim(sim, { checkpointEvery: 1000 });
    await store.append(makeCommit(store.book, [addOp('ours')]).commit);
    await store.checkpoint();
    aceSave(sim, Skillbook.fromJSON(sim.readText(DOC) ?? ''), [{ type: 'ADD', section: 'context', issue: 'theirs', insight: 'y' }]);
    sim.crashOn((op) => op.kind === 'write' && op.path.endsWith('.ledger.cohort-tmp'), {
      tear: { bytes: (_, n) => n, dirOps: (_, n) => n },
    });
    expect((await store.append(makeCommit(store.book, [addOp('lost')], { basis: 'store' }).commit)).ok).toBe(false);
    const { store: reopened, notices } = await openSim(sim);
    expect(notices.filter((n) => n.type === 'store.torn_tail_cut')).toMatchObject([{ reason: 'interrupted_checkpoint' }]);
    expect(notices.some((n) => n.type === 'store.adopted' && n.source === 'external')).toBe(true);
    expect([...reopened.book.skills()].map((s) => s.issue)).toEqual(['ours', 'theirs']);
    const replayed = replayHistory(await readHistory(reopened));
    expect(replayed.ok && sorted(replayed.book)).toEqual(sorted(reopened.book));
    await reopened.close();
  });

  it('interrupted creation - a store created with content that died before its first ledger is created again', async () => {
    const sim = new SimFs({ seed: 3 });
    const initial = makeCommit(Skillbook.empty(), [addOp('first')]).book;
    sim.crashOn((op) => op.kind === 'write' && op.path.endsWith('.ledger.cohort-tmp'), {
      tear: { bytes: (_, n) => n, dirOps: (_, n) => n },
    });
    await expect(openSim(sim, { initialBook: initial })).rejects.toThrow();
    const { store } = await openSim(sim, { initialBook: initial });
    expect(store.book.get('context-00001')?.issue).toBe('first');
    const [created] = await readHistory(store);
    expect(created?.external?.reason).toBe('created');
    await store.close();
  });
});
