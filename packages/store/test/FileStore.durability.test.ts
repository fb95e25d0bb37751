import { describe, expect, it } from 'vitest';
import { Skillbook, createIdAllocator } from '@cohort/skillbook';
import { FileStore, SimFs } from '@cohort/store';
import { ManualClock, addOp, makeCommit, replayAll } from '@cohort/store/testing';
import { DOC, collect, expectNextMergeDurable, openRaw, openSim } from './utils/simStore.ts';

const JOURNAL = `${DOC}.journal`;

describe('FileStore durability', () => {
  it('group commit - appends arriving while an fsync is in flight share the next one, each acknowledged once durable', async () => {
    const sim = new SimFs();
    const { store } = await openSim(sim, { checkpointEvery: 1000 });
    const before = sim.count('sync', JOURNAL);
    const ids = createIdAllocator(store.book.nextId);
    const made = Array.from({ length: 40 }, (_, i) => makeCommit(store.book, [addOp(`grouped ${i}`)], { ids, basis: 'store' }));
    const results = await Promise.all(made.map((m) => store.append(m.commit)));
    expect(results.every((r) => r.ok)).toBe(true);
    const syncs = sim.count('sync', JOURNAL) - before;
    expect(syncs).toBeGreaterThanOrEqual(1);
    expect(syncs).toBeLessThanOrEqual(2);
    // every acknowledged line is durable: a power loss that keeps only synced bytes loses none
    sim.crash({ tear: { bytes: () => 0, dirOps: () => 0 } });
    const { store: again } = await openSim(sim);
    expect(again.book.toJSON()).toBe(
      replayAll(
        Skillbook.empty(),
        made.map((m) => m.ops),
      ).toJSON(),
    );
    await again.close();
  });

  it('a failing read while catching up for load() is reported as store.io_failed, not swallowed; load resolves with the book held', async () => {
    const sim = new SimFs();
    const mount = sim.mount();
    let failing = false;
    const fs = Object.create(mount) as typeof mount;
    fs.readFile = (path) =>
      failing && path === DOC ? Promise.reject(Object.assign(new Error('EIO: i/o error, read'), { code: 'EIO' })) : mount.readFile(path);
    const opened = await FileStore.open(DOC, { fs, process: mount.process, idleCheckpointMs: 0, writerId: 'w-test' });
    if (!opened.ok) throw new Error(opened.error.message);
    const store = opened.store;
    expect((await store.append(makeCommit(store.book, [addOp('kept')], { basis: 'store' }).commit)).ok).toBe(true);
    const notices = collect(store);
    // another program's save, which the store must read to catch up
    sim.write(DOC, Skillbook.empty().toJSON());
    failing = true;
    const snapshot = await store.load();
    expect([...snapshot.book.skills()].map((s) => s.issue)).toEqual(['kept']);
    expect(notices.find((n) => n.type === 'store.io_failed')).toMatchObject({ poisoned: false });
    failing = false;
    await store.close();
  });

  it('fsync failure - a group whose fsync fails is refused whole, cut from the journal, and the store goes on', async () => {
    const sim = new SimFs();
    const { store } = await openSim(sim, { checkpointEvery: 1000 });
    const notices = collect(store);
    const kept = await store.append(makeCommit(store.book, [addOp('kept')], { basis: 'store' }).commit);
    expect(kept.ok).toBe(true);
    const length = sim.read(JOURNAL)?.length;
    sim.failSync({ path: JOURNAL });
    const refused = await store.append(makeCommit(store.book, [addOp('refused')], { basis: 'store' }).commit);
    expect(refused.ok ? null : refused.error.code).toBe('io');
    expect(sim.read(JOURNAL)?.length).toBe(length);
    expect(notices.find((n) => n.type === 'store.io_failed')).toMatchObject({ poisoned: false, refused: 1 });
    const after = await store.append(makeCommit(store.book, [addOp('after')], { basis: 'store' }).commit);
    expect(after.ok).toBe(true);
    await store.close();
    const { store: again } = await openSim(sim);
    const issues = [...again.book.skills()].map((s) => s.issue);
    expect(issues).toEqual(['kept', 'after']);
    await again.close();
  });

  it('crash between two writes - a power loss at any write of a checkpoint leaves every acknowledged merge', async () => {
    // count the operations of one checkpoint
    const probe = new SimFs();
    const p = await openSim(probe, { checkpointEvery: 1000 });
    await p.store.append(makeCommit(p.store.book, [addOp('one')], { sessionId: 'one' }).commit);
    const start = probe.ops;
    await p.store.checkpoint();
    const steps = probe.ops - start;
    expect(steps).toBeGreaterThan(8);
    for (let at = 0; at <= steps; at += 1) {
      for (const seed of [1, 2, 3]) {
        const sim = new SimFs({ seed });
        const { store } = await openSim(sim, { checkpointEvery: 1000 });
        const acked = await store.append(makeCommit(store.book, [addOp('one')], { sessionId: 'one' }).commit);
        if (!acked.ok) throw new Error(acked.error.message);
        sim.crashAfter(at);
        await store.checkpoint();
        if (sim.crashPending) {
          // the checkpoint ended before the crash point: the process dies now
          sim.cancelCrash();
          sim.crash();
        }
        const { store: again } = await openSim(sim);
        expect(again.book.toJSON(), `crash after ${at} writes (seed ${seed})`).toBe(acked.book.toJSON());
        await expectNextMergeDurable(sim, again, 'two', 'two');
      }
    }
  });

  it('checkpoint - the document is rewritten past the threshold, after the idle delay on the store clock, and on close', async () => {
    const sim = new SimFs();
    const clock = new ManualClock();
    const { store } = await openSim(sim, { checkpointEvery: 3, idleCheckpointMs: 500, clock });
    const docRevision = (): number => JSON.parse(sim.readText(`${DOC}.ledger`) ?? '{}').revision as number;
    let book = store.book;
    for (let i = 0; i < 3; i += 1) {
      const r = await store.append(makeCommit(book, [addOp(`t${i}`)]).commit);
      if (r.ok) book = r.book;
    }
    // the threshold checkpoint runs right after the acknowledgement, in the store's worker
    await store.load();
    expect(docRevision()).toBe(3);
    expect(Skillbook.fromJSON(sim.readText(DOC) ?? '').toJSON()).toBe(book.toJSON());
    const r = await store.append(makeCommit(book, [addOp('idle')]).commit);
    if (r.ok) book = r.book;
    // the idle timer is armed when the store's worker finishes the group
    await store.load();
    expect(docRevision()).toBe(3);
    clock.advance(499);
    await store.load();
    expect(docRevision()).toBe(3);
    clock.advance(1);
    await store.load();
    expect(docRevision()).toBe(4);
    const last = await store.append(makeCommit(book, [addOp('closing')]).commit);
    await store.close();
    expect(docRevision()).toBe(5);
    expect(sim.readText(DOC)).toBe(last.ok ? last.book.toJSON() : '');
    expect(clock.pending).toBe(0);
  });

  it('checkpoint - on a large document the threshold waits until the journal has grown to the given share of it', async () => {
    const sim = new SimFs();
    const seed = Skillbook.empty().applyBatch({
      operations: Array.from({ length: 300 }, (_, i) => ({
        type: 'ADD',
        section: 'harness',
        issue: `seeded skill ${i}`,
        insight: 'x'.repeat(40),
      })),
    });
    if (!seed.ok) throw new Error(seed.error.message);
    const { store } = await openSim(sim, { checkpointEvery: 2, checkpointJournalRatio: 0.25, initialBook: seed.book });
    const docRevision = (): number => JSON.parse(sim.readText(`${DOC}.ledger`) ?? '{}').revision as number;
    const documentBytes = sim.readText(DOC)?.length ?? 0;
    const journalBytes = (): number => (sim.readText(`${DOC}.journal`) ?? '').length;
    const startJournal = journalBytes();
    let book = store.book;
    let commits = 0;
    // past the count of 2, but the journal is still small next to the document: no rewrite
    while (journalBytes() - startJournal < 0.2 * documentBytes) {
      const r = await store.append(makeCommit(book, [addOp(`t${commits}`)]).commit);
      if (r.ok) book = r.book;
      commits += 1;
      await store.load();
      expect(docRevision()).toBe(seed.book.revision);
    }
    expect(commits).toBeGreaterThan(2);
    while (docRevision() === seed.book.revision) {
      const r = await store.append(makeCommit(book, [addOp(`t${commits}`)]).commit);
      if (r.ok) book = r.book;
      commits += 1;
      await store.load();
      expect(commits).toBeLessThan(1_000);
    }
    // rewritten once the journal past the document reached a quarter of it
    expect(journalBytes() - startJournal).toBeGreaterThanOrEqual(0.25 * documentBytes);
    expect(docRevision()).toBe(book.revision);
    await store.close();
  });

  it('options - a bad option is refused as a value naming it, and nothing is written', async () => {
    const sim = new SimFs();
    for (const bad of [
      { checkpointEvery: 0 },
      { checkpointJournalRatio: -1 },
      { checkpointJournalRatio: Number.NaN },
      { idleCheckpointMs: Infinity },
      { lockLeaseMs: 0 },
    ]) {
      const opened = await openRaw(sim, bad);
      expect(opened.ok).toBe(false);
      if (opened.ok) continue;
      expect(opened.error).toMatchObject({ code: 'invalid_options', file: DOC });
      expect(opened.error.message).toContain(Object.keys(bad)[0]);
    }
    expect(sim.readText(DOC)).toBeUndefined();
  });
});
