import { expect, it } from 'vitest';
import type { Skillbook } from '@cohort/skillbook';
import { commitOps } from '../../commitOps.ts';
import { replayHistory } from '../../replayHistory.ts';
import type { CommitRecord, PersistedCommit, Store } from '../../Store.ts';
import { addOp, makeCommit } from '../commitFixtures.ts';
import type { ConformanceContext } from './ConformanceContext.ts';
import { ok, seeded } from './ConformanceContext.ts';
import { PROTOTYPE_IDS } from './idCases.ts';

/** Every persisted commit, read a page of `limit` at a time. */
export async function readHistory(store: Store, limit = 3): Promise<PersistedCommit[]> {
  const out: PersistedCommit[] = [];
  let after: number | undefined;
  for (;;) {
    const page = ok(await store.history({ ...(after === undefined ? {} : { after }), limit }), 'history');
    out.push(...page.commits);
    if (page.next === null) return out;
    after = page.next;
  }
}

/** A commit of one root session holding three blocks: the root's own, a child's and a grandchild's. */
function nested(book: Skillbook, root: string): CommitRecord {
  const child = makeCommit(book, [addOp(`${root} child`)]);
  const grandchild = makeCommit(child.book, [{ type: 'TAG', section: 'context', skill_id: 'context-00001', metadata: { delta: 1 } }]);
  const own = makeCommit(grandchild.book, [{ type: 'UPDATE', section: 'context', skill_id: 'context-00002', insight: `${root} was here` }]);
  const at = 7;
  return {
    expectedRevision: book.revision,
    sessionId: root,
    path: [root],
    at,
    entries: [
      { sessionId: `${root}.1`, path: [root, `${root}.1`], name: 'child', ops: child.ops, at },
      { sessionId: `${root}.1.1`, path: [root, `${root}.1`, `${root}.1.1`], ops: grandchild.ops, at },
      { sessionId: root, path: [root], ops: own.ops, at },
    ],
  };
}

/** History: the durable per-session audit, paged, replayable; what is not journaled. */
export function historyCases({ start, factory }: ConformanceContext): void {
  it("history - a commit persists its blocks: each session's id, path, name and ops, in order, at the commit's revision", async () => {
    const { store } = await start();
    const commit = nested((await store.load()).book, 'r1');
    const landed = ok(await store.append(commit));
    const persisted = (await readHistory(store)).filter((c) => c.kind === 'commit');
    expect(persisted).toHaveLength(1);
    const [one] = persisted;
    expect(one?.revision).toBe(landed.revision);
    expect([one?.sessionId, one?.path]).toEqual(['r1', ['r1']]);
    expect(one?.entries.map((b) => [b.sessionId, b.path, b.name ?? null, b.revision, b.ops.length])).toEqual([
      ['r1.1', ['r1', 'r1.1'], 'child', landed.revision, 1],
      ['r1.1.1', ['r1', 'r1.1', 'r1.1.1'], null, landed.revision, 1],
      ['r1', ['r1'], null, landed.revision, 1],
    ]);
    expect(commitOps(one ?? { entries: [] })).toEqual(commitOps(commit));
  });

  it('history - pages through every commit in revision order; replaying them all from the empty book reproduces the book', async () => {
    const { store } = await start();
    let book = (await store.load()).book;
    for (let i = 0; i < 7; i += 1)
      book = ok(await store.append(i % 3 === 0 ? nested(book, `r${i}`) : makeCommit(book, [addOp(`plain ${i}`)]).commit)).book;
    const commits = await readHistory(store, 2);
    const revisions = commits.map((c) => c.revision);
    expect(revisions).toEqual([...revisions].sort((a, b) => a - b));
    expect(commits.filter((c) => c.kind === 'commit')).toHaveLength(7);
    const replayed = replayHistory(commits);
    expect(replayed.ok && replayed.book.toJSON()).toBe(book.toJSON());
    const tail = ok(await store.history({ after: revisions[revisions.length - 2] ?? 0 }));
    expect(tail.commits.map((c) => c.revision)).toEqual(revisions.slice(-1));
    expect(tail.next).toBeNull();
  });

  it('history - a reopened store reads the same history, and it still replays to the book', async () => {
    const harness = await factory(seeded());
    const store = await harness.open();
    let book = (await store.load()).book;
    for (let i = 0; i < 4; i += 1) book = ok(await store.append(nested(book, `r${i}`))).book;
    const before = await readHistory(store);
    await store.close();
    if (harness.durable) {
      const again = await harness.open();
      const after = await readHistory(again);
      expect(after.map((c) => [c.kind, c.revision, c.entries.map((b) => [b.sessionId, b.path, commitOps({ entries: [b] })])])).toEqual(
        before.map((c) => [c.kind, c.revision, c.entries.map((b) => [b.sessionId, b.path, commitOps({ entries: [b] })])]),
      );
      const replayed = replayHistory(after);
      expect(replayed.ok && replayed.book.toJSON()).toBe(book.toJSON());
      await again.close();
    }
    await harness.cleanup?.();
  });

  it('history - what a store was created with is its first change, so replaying reproduces a book that did not start empty', async () => {
    const initial = seeded();
    const { store } = await start(initial);
    const [first] = await readHistory(store);
    expect(first?.kind).toBe('external');
    expect(first?.external?.skills.map((s) => s.id)).toEqual([...initial.skills()].map((s) => s.id));
    const replayed = replayHistory(await readHistory(store));
    expect(replayed.ok && replayed.book.toJSON()).toBe(initial.toJSON());
  });

  it('history - an op that changes nothing (a REMOVE of a removed skill) is not journaled; a commit of only such ops adds no revision', async () => {
    const { store } = await start();
    const snap = await store.load();
    const remove = { type: 'REMOVE', section: 'context', skill_id: 'context-00001' };
    const first = ok(await store.append(makeCommit(snap.book, [remove], { basis: 'store' }).commit));
    const again = ok(await store.append(makeCommit(snap.book, [remove, addOp('kept')], { basis: 'store' }).commit));
    const noop = ok(await store.append(makeCommit(snap.book, [remove], { basis: 'store' }).commit));
    expect([again.revision, noop.revision]).toEqual([first.revision + 1, first.revision + 1]);
    const history = await readHistory(store);
    const removes = history.flatMap((c) => commitOps(c)).filter((op) => op.type === 'REMOVE');
    expect(removes).toHaveLength(1);
    // an append's result says what it persisted: what history holds for it, or nothing
    const persisted = (revision: number) =>
      history.find((c) => c.revision === revision)?.entries.map(({ revision: _r, ...block }) => block);
    for (const [result, expected] of [
      [first, persisted(first.revision)],
      [again, persisted(again.revision)],
      [noop, []],
    ] as const) {
      if (result.entries !== undefined) expect(result.entries).toEqual(expected);
    }
    expect(again.entries?.flatMap((b) => b.ops.map((op) => op.type))).toEqual(again.entries ? ['ADD'] : undefined);
  });

  it('history - prototype member names as ids and session ids go through history and replay as plain strings', async () => {
    const { store } = await start();
    const snap = await store.load();
    const adds = PROTOTYPE_IDS.map((id) => ({ ...addOp(`skill ${id}`), skill_id: id }));
    const made = makeCommit(snap.book, adds, {
      sessionId: '__proto__',
      path: ['constructor', '__proto__'],
      explicitIds: [...PROTOTYPE_IDS],
    });
    const landed = ok(await store.append(made.commit));
    const commits = await readHistory(store);
    const last = commits[commits.length - 1];
    expect([last?.sessionId, last?.path, last?.entries[0]?.sessionId]).toEqual(['__proto__', ['constructor', '__proto__'], '__proto__']);
    const replayed = replayHistory(commits);
    expect(replayed.ok && replayed.book.toJSON()).toBe(landed.book.toJSON());
  });

  it('history - a page asked for wrongly is refused as invalid_request', async () => {
    const { store } = await start();
    for (const options of [{ limit: 0 }, { limit: 1.5 }, { after: 0.5 }]) {
      const page = await store.history(options);
      expect(page.ok ? null : page.error.code).toBe('invalid_request');
    }
    expect(Array.isArray(store.openNotices)).toBe(true);
  });
}
