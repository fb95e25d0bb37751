import { expect, it } from 'vitest';
import { createIdAllocator } from '@cohort/skillbook';
import type { Skillbook } from '@cohort/skillbook';
import type { CommitRecord } from '../../Store.ts';
import { addOp, makeCommit, replayAll } from '../commitFixtures.ts';
import type { MadeCommit } from '../commitFixtures.ts';
import type { ConformanceContext } from './ConformanceContext.ts';
import { seeded } from './ConformanceContext.ts';

/** `commit` with one more op in its (only) block: an UPDATE of a skill no store holds. */
function withGhostUpdate(commit: CommitRecord): CommitRecord {
  const block = commit.entries[0];
  if (!block) throw new Error('a commit without a block');
  const at = block.ops[0]?.at ?? '2026-01-01T00:00:00.000000+00:00';
  return {
    ...commit,
    entries: [{ ...block, ops: [...block.ops, { type: 'UPDATE', section: 'context', skill_id: 'nobody-00001', insight: 'x', at }] }],
  };
}

/** A commit adding a skill (`issue`) to `book`, and a commit made on top of it that updates that skill's insight. */
function addThenUpdate(book: Skillbook, issue: string, insight: string): { added: MadeCommit; dependent: MadeCommit } {
  const added = makeCommit(book, [addOp(issue)]);
  const id = added.ops[0]?.skill_id ?? '';
  return { added, dependent: makeCommit(added.book, [{ type: 'UPDATE', section: 'context', skill_id: id, insight }]) };
}

/** Appends: compare-and-set, conflicts, refusals, concurrency and the speculative basis. */
export function appendCases({ start, factory }: ConformanceContext): void {
  it('load - a new store holds the initial book at its revision, current() at once', async () => {
    const initial = seeded();
    const { store } = await start(initial);
    const snap = await store.load();
    expect(snap.revision).toBe(snap.book.revision);
    expect(snap.book.toJSON()).toBe(initial.toJSON());
    expect(store.current()?.book.toJSON()).toBe(initial.toJSON());
  });

  it('append - a commit on the current revision is applied: its book is the serial replay, one revision on', async () => {
    const { store } = await start();
    const snap = await store.load();
    const made = makeCommit(snap.book, [
      addOp('new skill'),
      { type: 'TAG', section: 'context', skill_id: 'context-00001', metadata: { delta: 1 } },
    ]);
    const result = await store.append(made.commit);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.revision).toBe(snap.revision + 1);
    expect(result.book.revision).toBe(result.revision);
    expect(result.book.toJSON()).toBe(made.book.toJSON());
    expect((await store.load()).book.toJSON()).toBe(made.book.toJSON());
    expect(store.current()?.revision).toBe(result.revision);
  });

  it('append - a commit based on an older revision that does not conflict is applied on top', async () => {
    const { store } = await start();
    const snap = await store.load();
    const ids = createIdAllocator(snap.book.nextId);
    const a = makeCommit(snap.book, [addOp('from a')], { ids, basis: 'store' });
    const b = makeCommit(
      snap.book,
      [addOp('from b'), { type: 'UPDATE', section: 'context', skill_id: 'context-00002', insight: 'b was here' }],
      { ids, basis: 'store' },
    );
    const ra = await store.append(a.commit);
    const rb = await store.append(b.commit);
    expect(ra.ok && rb.ok).toBe(true);
    if (!rb.ok) return;
    expect(rb.revision).toBe(snap.revision + 2);
    expect(rb.book.toJSON()).toBe(replayAll(snap.book, [a.ops, b.ops]).toJSON());
  });

  it('append - a conflicting commit based on an older revision is refused with its conflicts and changes nothing', async () => {
    const { store } = await start();
    const snap = await store.load();
    const a = makeCommit(snap.book, [{ type: 'UPDATE', section: 'context', skill_id: 'context-00001', insight: 'first' }], {
      basis: 'store',
    });
    const b = makeCommit(snap.book, [{ type: 'UPDATE', section: 'context', skill_id: 'context-00001', insight: 'second' }], {
      basis: 'store',
    });
    expect((await store.append(a.commit)).ok).toBe(true);
    const before = (await store.load()).book.toJSON();
    const rb = await store.append(b.commit);
    expect(rb.ok).toBe(false);
    if (rb.ok) return;
    expect(rb.error.code).toBe('conflict');
    expect(rb.error.conflicts?.map((c) => [c.opIndex, c.skillId, c.reason])).toEqual([[0, 'context-00001', 'content_changed']]);
    expect((await store.load()).book.toJSON()).toBe(before);
  });

  it('append - a revision the store never had is refused as revision_mismatch', async () => {
    const { store } = await start();
    const snap = await store.load();
    const made = makeCommit(snap.book, [addOp('ahead')], { basis: 'store' });
    const r = await store.append({ ...made.commit, expectedRevision: snap.revision + 5 });
    expect(r.ok ? null : r.error.code).toBe('revision_mismatch');
  });

  it('append - an op on a skill the store does not have is a conflict, not a silent no-op', async () => {
    const { store } = await start();
    const snap = await store.load();
    const { dependent } = addThenUpdate(snap.book, 'ghost', 'changed');
    const r = await store.append({ ...dependent.commit, expectedRevision: snap.revision, basis: 'store' });
    expect(r.ok ? null : r.error.code).toBe('conflict');
    expect((await store.load()).revision).toBe(snap.revision);
  });

  it('append - invalid ops are refused as invalid_commit, never thrown, and change nothing', async () => {
    const { store } = await start();
    const snap = await store.load();
    const block = { sessionId: 'bad', path: ['bad'], at: 0, ops: [{ type: 'ADD', section: 'context', skill_id: 'x-1', at: 'not a time' }] };
    const bad = { expectedRevision: snap.revision, sessionId: 'bad', path: ['bad'], at: 0, entries: [block] };
    const r = await store.append(bad as never);
    expect(r.ok ? null : r.error.code).toBe('invalid_commit');
    expect((await store.load()).revision).toBe(snap.revision);
  });

  it('append - a malformed commit (no audit blocks, a block without ops) is refused as invalid_commit, and the store goes on', async () => {
    const { store } = await start();
    const snap = await store.load();
    const made = makeCommit(snap.book, [addOp('flat')]);
    const flat = { expectedRevision: snap.revision, sessionId: 's', path: ['s'], at: 0, ops: made.ops };
    const noOps = { ...made.commit, entries: [{ sessionId: 's', path: ['s'], at: 0 }] };
    for (const bad of [flat, noOps, { ...made.commit, allocation: 'borrowed' }]) {
      const r = await store.append(bad as never);
      expect(r.ok ? null : r.error.code).toBe('invalid_commit');
    }
    expect((await store.append(made.commit)).ok).toBe(true);
  });

  it('append - concurrent appends all resolve with distinct revisions, and the book is their replay in revision order', async () => {
    const { store } = await start();
    const snap = await store.load();
    const ids = createIdAllocator(snap.book.nextId);
    const made = Array.from({ length: 12 }, (_, i) => makeCommit(snap.book, [addOp(`concurrent ${i}`)], { ids, basis: 'store' }));
    const results = await Promise.all(made.map((m) => store.append(m.commit)));
    const revisions = results.map((r) => (r.ok ? r.revision : -1));
    expect(new Set(revisions).size).toBe(12);
    expect(Math.min(...revisions)).toBe(snap.revision + 1);
    const order = made.map((m, i) => ({ ops: m.ops, rev: revisions[i] ?? 0 })).sort((a, b) => a.rev - b.rev);
    expect((await store.load()).book.toJSON()).toBe(
      replayAll(
        snap.book,
        order.map((o) => o.ops),
      ).toJSON(),
    );
  });

  it('speculative - pipelined appends numbered by the client are applied in order while nothing diverges', async () => {
    const { store } = await start();
    let book = (await store.load()).book;
    const pending = [];
    for (let i = 0; i < 5; i += 1) {
      const made = makeCommit(book, [
        addOp(`pipelined ${i}`),
        { type: 'UPDATE', section: 'context', skill_id: 'context-00001', insight: `v${i}` },
      ]);
      pending.push(store.append(made.commit));
      book = made.book;
    }
    const results = await Promise.all(pending);
    expect(results.every((r) => r.ok)).toBe(true);
    expect((await store.load()).book.toJSON()).toBe(book.toJSON());
  });

  it('speculative - after a refused append, a pipelined append that depended on it is refused too', async () => {
    const { store } = await start();
    const snap = await store.load();
    const { added: first, dependent: second } = addThenUpdate(snap.book, 'lost', 'depends');
    expect(second.ops).toHaveLength(1);
    // the first commit names a skill the store does not have: it is refused
    const [r1, r2] = await Promise.all([store.append(withGhostUpdate(first.commit)), store.append(second.commit)]);
    expect(r1.ok).toBe(false);
    expect(r2.ok).toBe(false);
    expect((await store.load()).revision).toBe(snap.revision);
  });

  it('speculative - once nothing is in flight, an append based on a reported revision is checked exactly again', async () => {
    const { store } = await start();
    const snap = await store.load();
    const edit = (book: Skillbook, insight: string) =>
      makeCommit(book, [{ type: 'UPDATE', section: 'context', skill_id: 'context-00001', insight }]);
    const first = await store.append(edit(snap.book, 'first').commit);
    if (!first.ok) throw new Error(first.error.message);
    // a refused append based on the old revision: until the client has taken in its result, later ones are checked from there
    const refused = await store.append(withGhostUpdate(makeCommit(snap.book, [addOp('ghost')]).commit));
    expect(refused.ok).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 10));
    const second = await store.append(edit(first.book, 'second').commit);
    expect(second.ok).toBe(true);
  });

  it('close - appends and leases after close are refused with code closed, and notices$ completes', async () => {
    const harness = await factory(seeded());
    const store = await harness.open();
    let completed = false;
    store.notices$.subscribe({ complete: () => (completed = true) });
    const snap = await store.load();
    await store.close();
    const r = await store.append(makeCommit(snap.book, [addOp('late')]).commit);
    expect(r.ok ? null : r.error.code).toBe('closed');
    const lease = await store.leaseIds(10);
    expect(lease.ok ? null : lease.error.code).toBe('closed');
    expect(completed).toBe(true);
    await harness.cleanup?.();
  });

  it('durability - a reopened store holds every acknowledged commit', async () => {
    const harness = await factory(seeded());
    const store = await harness.open();
    let book = (await store.load()).book;
    for (let i = 0; i < 5; i += 1) {
      const r = await store.append(makeCommit(book, [addOp(`durable ${i}`)]).commit);
      if (!r.ok) throw new Error(r.error.message);
      book = r.book;
    }
    await store.close();
    if (harness.durable) {
      const again = await harness.open();
      const snap = await again.load();
      expect(snap.book.toJSON()).toBe(book.toJSON());
      expect(snap.revision).toBe(book.revision);
      expect(again.current()?.book.toJSON()).toBe(book.toJSON());
      await again.close();
    }
    await harness.cleanup?.();
  });
}
