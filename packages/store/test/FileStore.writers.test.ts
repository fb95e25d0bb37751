import { describe, expect, it } from 'vitest';
import { Skillbook } from '@cohort/skillbook';
import { FileStore, SimFs, describeOpenError } from '@cohort/store';
import type { StoreFs } from '@cohort/store';
import { addOp, makeCommit } from '@cohort/store/testing';
import { DOC, collect, freshSimStore, openRaw, openSim } from './utils/simStore.ts';

const LOCK = `${DOC}.lock`;

/** Writes the document as ACE would, after applying raw operations to what is on disk. */
function aceEdit(sim: SimFs, operations: readonly Record<string, unknown>[], path = DOC): void {
  const book = Skillbook.fromJSON(sim.readText(path) ?? '');
  const r = book.applyBatch({ operations }, { clock: { now: () => Date.UTC(2026, 5, 1) } });
  if (!r.ok) throw new Error(r.error.message);
  sim.write(path, r.book.toJSON());
}

describe('FileStore and other writers', () => {
  it('lock - a live holder makes a writer wait, then refuse with the holder named', async () => {
    const { sim, store } = await freshSimStore({ lockWaitMs: 30 });
    const holder = sim.mount();
    sim.write(
      LOCK,
      JSON.stringify({ pid: holder.process.pid, host: 'sim', writerId: 'other', generation: 7, acquiredAt: Date.now(), leaseMs: 60_000 }),
    );
    const r = await store.append(makeCommit(store.book, [addOp('blocked')]).commit);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.code).toBe('locked');
    expect(r.error.holder).toMatchObject({ writerId: 'other', generation: 7, host: 'sim' });
    expect(store.book.size).toBe(0);
  });

  it('lock - the lock of a dead process, or an expired lease, is taken over with a notice and a new generation', async () => {
    const sim = new SimFs();
    const dead = sim.mount();
    dead.kill();
    sim.write(
      LOCK,
      JSON.stringify({ pid: dead.process.pid, host: 'sim', writerId: 'gone', generation: 3, acquiredAt: Date.now(), leaseMs: 60_000 }),
    );
    const { store, notices } = await openSim(sim);
    expect(notices.find((n) => n.type === 'store.lock_taken_over')).toMatchObject({
      reason: 'dead_process',
      generation: 4,
      previous: { writerId: 'gone' },
    });
    sim.write(LOCK, JSON.stringify({ pid: 1, host: 'elsewhere', writerId: 'stuck', generation: 9, acquiredAt: 0, leaseMs: 1_000 }));
    const seen = collect(store);
    const r = await store.append(makeCommit(store.book, [addOp('after takeover')]).commit);
    expect(r.ok).toBe(true);
    // notices of the open are replayed to every subscriber first
    expect(
      seen.filter((n) => n.type === 'store.lock_taken_over').map((n) => n.type === 'store.lock_taken_over' && [n.reason, n.generation]),
    ).toEqual([
      ['dead_process', 4],
      ['lease_expired', 10],
    ]);
    await store.close();
    expect(sim.readText(LOCK)).toBeUndefined();
  });

  it("two writers - each takes in the other one's commits, and ids both allocated are re-mapped and reported", async () => {
    const sim = new SimFs();
    const a = (await openSim(sim, { writerId: 'a' })).store;
    const b = (await openSim(sim, { writerId: 'b' })).store;
    const seenB = collect(b);
    const fromA = await a.append(makeCommit(a.book, [addOp('from a')], { basis: 'store' }).commit);
    const madeB = makeCommit(
      b.book,
      [addOp('from b'), { type: 'TAG', section: 'context', skill_id: 'context-00001', metadata: { delta: 1 } }],
      { basis: 'store' },
    );
    const fromB = await b.append(madeB.commit);
    expect(fromA.ok && fromB.ok).toBe(true);
    if (!fromB.ok) return;
    expect(Object.fromEntries(fromB.idMap ?? [])).toEqual({ 'context-00001': 'context-00002' });
    expect(fromB.book.get('context-00001')?.issue).toBe('from a');
    expect(fromB.book.get('context-00002')).toMatchObject({ issue: 'from b', helpful_count: 1 });
    expect(seenB.map((n) => n.type)).toEqual(expect.arrayContaining(['store.adopted', 'store.ids_remapped']));
    expect((await a.load()).book.toJSON()).toBe(fromB.book.toJSON());
    await a.close();
    await b.close();
    const { store: again } = await openSim(sim);
    expect(again.book.toJSON()).toBe(fromB.book.toJSON());
    await again.close();
  });

  it('external edit - a skill ACE added while no Cohort process ran is adopted on open', async () => {
    const sim = new SimFs();
    const { store } = await openSim(sim);
    await store.append(makeCommit(store.book, [addOp('ours')]).commit);
    await store.close();
    aceEdit(sim, [{ type: 'ADD', section: 'context', issue: 'added by ACE', insight: 'x' }]);
    const { store: again, notices } = await openSim(sim);
    expect(notices.find((n) => n.type === 'store.adopted')).toMatchObject({
      source: 'external',
      external: { counts: { added: 1, dropped: 0 } },
    });
    expect([...again.book.skills()].map((s) => s.issue)).toEqual(['ours', 'added by ACE']);
    await again.close();
  });

  it('external edit - a document ACE changed is merged into ours: its change and its skill come in, our commits since the checkpoint stay', async () => {
    const { sim, store, seen } = await freshSimStore({ checkpointEvery: 1000 });
    const first = await store.append(makeCommit(store.book, [addOp('checkpointed')]).commit);
    await store.checkpoint();
    const ours = await store.append(makeCommit(first.ok ? first.book : store.book, [addOp('journaled')], { basis: 'store' }).commit);
    expect(ours.ok).toBe(true);
    aceEdit(sim, [
      { type: 'UPDATE', section: 'context', skill_id: 'context-00001', insight: 'edited by ACE' },
      { type: 'ADD', section: 'context', issue: 'ace skill', insight: 'y' },
    ]);
    const next = await store.append(makeCommit(store.book, [addOp('next')], { basis: 'store' }).commit);
    expect(next.ok).toBe(true);
    const rebased = seen.find((n) => n.type === 'store.rebased');
    expect(rebased).toMatchObject({
      rebased: 1,
      external: { counts: { changed: 1, added: 1 } },
      base: { source: 'cohort', revision: 1 },
      conflicts: [],
    });
    // ACE allocated context-00002 too: Cohort's id is final, ACE's skill is renumbered (once, with a notice)
    expect(rebased && 'idMap' in rebased ? rebased.idMap : null).toEqual({ 'context-00002': 'context-00003' });
    expect(seen.filter((n) => n.type === 'store.ids_remapped' && n.sessionId === 'external')).toMatchObject([
      { idMap: { 'context-00002': 'context-00003' } },
    ]);
    const issues = [...store.book.skills()].map((s) => `${s.id}:${s.issue}:${s.insight}`);
    expect(issues).toEqual([
      'context-00001:checkpointed:edited by ACE',
      'context-00002:journaled:insight for journaled',
      'context-00003:ace skill:y',
      'context-00004:next:insight for next',
    ]);
    const document = Skillbook.fromJSON(sim.readText(DOC) ?? '');
    expect([document.get('context-00002')?.issue, document.get('context-00003')?.issue]).toEqual(['journaled', 'ace skill']);
    await store.close();
  });

  it('external edit - a write that lands in the replaced document file after a checkpoint is not lost', async () => {
    const { sim, store, seen } = await freshSimStore({ checkpointEvery: 1000 });
    await store.append(makeCommit(store.book, [addOp('ours')]).commit);
    await store.checkpoint();
    // ACE opened the document before the rename and writes into the old file now
    aceEdit(sim, [{ type: 'ADD', section: 'context', issue: 'late ACE skill', insight: 'z' }], `${DOC}.replaced`);
    await store.append(makeCommit(store.book, [addOp('more')], { basis: 'store' }).commit);
    expect(seen.some((n) => n.type === 'store.rebased' || n.type === 'store.adopted' || n.type === 'store.forked')).toBe(true);
    expect([...store.book.skills()].map((s) => s.issue)).toContain('late ACE skill');
    await store.close();
    expect(sim.readText(DOC)).toContain('late ACE skill');
  });

  it('external edit - a late write into the replaced file that lands while the next checkpoint runs is not deleted by it', async () => {
    const sim = new SimFs();
    const mount = sim.mount();
    let lateWrite = false;
    // ACE writes into the old file just as the store writes its next checkpoint's document
    const fs = new Proxy(mount, {
      get(target, key) {
        const value: unknown = Reflect.get(target, key);
        if (key === 'writeFile') {
          return (path: string, ...rest: unknown[]) => {
            if (lateWrite && path === `${DOC}.cohort-tmp`) {
              lateWrite = false;
              aceEdit(sim, [{ type: 'ADD', section: 'context', issue: 'late ACE skill', insight: 'z' }], `${DOC}.replaced`);
            }
            return (value as (...args: unknown[]) => unknown).call(target, path, ...rest);
          };
        }
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    }) as StoreFs;
    const opened = await FileStore.open(DOC, {
      fs,
      process: mount.process,
      idleCheckpointMs: 0,
      writerId: 'w-test',
      checkpointEvery: 1000,
    });
    if (!opened.ok) throw new Error(describeOpenError(opened.error));
    const store = opened.store;
    await store.append(makeCommit(store.book, [addOp('ours')]).commit);
    await store.checkpoint();
    lateWrite = true;
    await store.append(makeCommit(store.book, [addOp('more')], { basis: 'store' }).commit);
    await store.checkpoint();
    expect(lateWrite).toBe(false);
    // the next look finds it and takes it in
    await store.append(makeCommit(store.book, [addOp('after')], { basis: 'store' }).commit);
    expect([...store.book.skills()].map((s) => s.issue)).toContain('late ACE skill');
    await store.close();
    expect(sim.readText(DOC)).toContain('late ACE skill');
    // ACE wrote into a document that lacked ours: they stay all the same, and no recovery copy is needed
    expect([...Skillbook.fromJSON(sim.readText(DOC) ?? '').skills()].map((s) => s.issue)).toEqual([
      'ours',
      'more',
      'late ACE skill',
      'after',
    ]);
    expect(sim.list('/db').filter((f) => f.includes('.recovery-'))).toEqual([]);
  });

  it('external edit - a document caught mid-write is left alone; merges go on to the journal and it is reconciled once readable', async () => {
    const { sim, store, seen } = await freshSimStore({ checkpointEvery: 1 });
    await store.append(makeCommit(store.book, [addOp('before')]).commit);
    await store.load();
    // ACE read the document, and is now rewriting it in place: truncated, then whole again
    const read = Skillbook.fromJSON(sim.readText(DOC) ?? '');
    const edited = read.applyBatch({ operations: [{ type: 'ADD', section: 'context', issue: 'ace skill', insight: 'w' }] });
    if (!edited.ok) throw new Error(edited.error.message);
    const whole = edited.book.toJSON();
    sim.write(DOC, whole.slice(0, 40));
    const during = await store.append(makeCommit(store.book, [addOp('during')], { basis: 'store' }).commit);
    expect(during.ok).toBe(true);
    await store.load();
    expect(sim.readText(DOC)).toBe(whole.slice(0, 40));
    expect(seen.filter((n) => n.type === 'store.document_unreadable')).toHaveLength(1);
    sim.write(DOC, whole);
    await store.append(makeCommit(store.book, [addOp('after')], { basis: 'store' }).commit);
    await store.close();
    // ACE wrote what it read before 'during': 'during' was never in it, so it stays; ACE's skill comes in under a new id
    expect(seen.filter((n) => n.type === 'store.forked' || n.type === 'store.force_saved')).toEqual([]);
    expect(seen.find((n) => n.type === 'store.rebased')).toMatchObject({
      external: { counts: { added: 1, dropped: 0 } },
      idMap: { 'context-00002': 'context-00003' },
    });
    const { store: again } = await openSim(sim);
    expect([...again.book.skills()].map((s) => s.issue)).toEqual(['before', 'during', 'ace skill', 'after']);
    await again.close();
  });

  it('open - a second process gets a structured refusal while the lock stays held', async () => {
    const sim = new SimFs();
    const holder = sim.mount();
    sim.write(
      LOCK,
      JSON.stringify({ pid: holder.process.pid, host: 'sim', writerId: 'busy', generation: 1, acquiredAt: Date.now(), leaseMs: 60_000 }),
    );
    const opened = await openRaw(sim, { lockWaitMs: 20 });
    expect(opened.ok ? null : opened.error).toMatchObject({ code: 'locked', file: LOCK, holder: { writerId: 'busy' } });
  });
});
