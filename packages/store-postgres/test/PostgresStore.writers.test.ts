import { afterEach, describe, expect, it } from 'vitest';
import pg from 'pg';
import { firstValueFrom } from 'rxjs';
import { filter } from 'rxjs/operators';
import { Skillbook, createIdAllocator } from '@cohort/skillbook';
import { replayHistory } from '@cohort/store';
import type { StoreSnapshot } from '@cohort/store';
import { addOp, makeCommit, readHistory } from '@cohort/store/testing';
import type { PostgresStore } from '@cohort/store-postgres';
import { PgProxy } from './utils/PgProxy.ts';
import { PgStores, backendsOf, until } from './utils/openPg.ts';
import { PG_URL, sql } from './utils/pgSchema.ts';

const stores = new PgStores();
afterEach(() => stores.cleanup());

/** The next book `store` takes in from other writers at or past `revision`. */
function externalAt(store: PostgresStore, revision: number): Promise<StoreSnapshot> {
  return firstValueFrom(store.external$.pipe(filter((s) => s.revision >= revision)));
}

describe('PostgresStore with several writers on one database', () => {
  it("writers - a commit based before another writer's change is checked against it: refused when it conflicts, applied on top when not", async () => {
    const schema = stores.schema('two');
    const a = await stores.open({ schema, writerId: 'a', initialBook: makeCommit(Skillbook.empty(), [addOp('shared')]).book });
    const b = await stores.open({ schema, writerId: 'b' });
    const base = b.book;
    expect(base.toJSON()).toBe(a.book.toJSON());
    const ra = await a.append(
      makeCommit(base, [{ type: 'UPDATE', section: 'context', skill_id: 'context-00001', insight: 'a says' }], { basis: 'store' }).commit,
    );
    expect(ra.ok).toBe(true);
    const clash = await b.append(
      makeCommit(base, [{ type: 'UPDATE', section: 'context', skill_id: 'context-00001', insight: 'b says' }], { basis: 'store' }).commit,
    );
    expect(clash.ok ? null : clash.error.conflicts?.map((c) => c.reason)).toEqual(['content_changed']);
    const fine = await b.append(
      makeCommit(base, [addOp('b adds'), { type: 'TAG', section: 'context', skill_id: 'context-00001', metadata: { delta: 1 } }], {
        basis: 'store',
      }).commit,
    );
    expect(fine.ok ? fine.revision : null).toBe(base.revision + 2);
    if (!fine.ok) return;
    expect(fine.book.get('context-00001')?.insight).toBe('a says');
    expect(fine.book.get('context-00001')?.helpful_count).toBe(1);
    // the refusal is in the conflict log
    const log = await sql<{ kind: string; session_id: string }>(`SELECT kind, session_id FROM "${schema}".log WHERE kind = 'conflict'`);
    expect(log).toHaveLength(1);
  });

  it("notify - another writer's revisions reach a store through LISTEN/NOTIFY, without an append or a load of its own", async () => {
    const schema = stores.schema('notify');
    const a = await stores.open({ schema, writerId: 'a' });
    const b = await stores.open({ schema, writerId: 'b' });
    let book = b.book;
    for (let i = 0; i < 3; i += 1) {
      const r = await b.append(makeCommit(book, [addOp(`from b ${i}`)]).commit);
      if (!r.ok) throw new Error(r.error.message);
      book = r.book;
    }
    const seen = await externalAt(a, 3);
    expect(seen.book.toJSON()).toBe(book.toJSON());
    expect(a.current().revision).toBe(3);
  });

  it('notify - a notification heard while a group waits for the lock starts no read beside it; the store catches up once idle', async () => {
    const proxy = await PgProxy.start({ host: '127.0.0.1', port: Number(new URL(PG_URL).port || 5432) }, { record: true });
    // reads of the commits past a revision without the book's lock: a catch-up's, not a group's
    const unlockedReads = (): number => proxy.sent.filter((q) => q.includes('c.revision >') && !q.includes('FOR UPDATE')).length;
    try {
      const schema = stores.schema('busy');
      const a = await stores.open({ schema, writerId: 'busy', url: proxy.urlFor(PG_URL) });
      const b = await stores.open({ schema, writerId: 'other', listen: false });
      const first = await b.append(makeCommit(b.book, [addOp('from b')]).commit);
      if (!first.ok) throw new Error(first.error.message);
      await externalAt(a, 1);
      const before = unlockedReads();
      const holder = new pg.Client({ connectionString: PG_URL });
      await holder.connect();
      try {
        await holder.query(`BEGIN; SELECT 1 FROM "${schema}".book FOR UPDATE`);
        const appended = a.append(makeCommit(a.book, [addOp('from a')]).commit);
        await until(async () => (await backendsOf('busy')).some((x) => x.wait === 'Lock'));
        await sql(`SELECT pg_notify('cohort_${schema}', '7')`);
        await until(async () => proxy.received.some((m) => m.includes(`cohort_${schema}\u00007`)));
        await new Promise((resolve) => setTimeout(resolve, 50));
        expect(unlockedReads()).toBe(before);
        await holder.query('COMMIT');
        const r = await appended;
        expect(r.ok && r.revision).toBe(2);
        await until(async () => unlockedReads() === before + 1);
      } finally {
        await holder.end();
      }
    } finally {
      await proxy.close();
    }
  });

  it('notify - notifications missed while the listening connection was down are caught up from the commits table', async () => {
    const proxy = await PgProxy.start({ host: '127.0.0.1', port: Number(new URL(PG_URL).port || 5432) });
    try {
      const schema = stores.schema('missed');
      const a = await stores.open({ schema, writerId: 'deaf', url: proxy.urlFor(PG_URL) });
      const b = await stores.open({ schema, writerId: 'writer', listen: false });
      // a's connections drop and stay down: the notification of b's commit cannot reach it
      proxy.outage();
      const r = await b.append(makeCommit(b.book, [addOp('while a was deaf')]).commit);
      if (!r.ok) throw new Error(r.error.message);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(a.current().revision).toBe(0);
      proxy.restore();
      const seen = await externalAt(a, r.revision);
      expect(seen.book.get('context-00001')?.issue).toBe('while a was deaf');
    } finally {
      await proxy.close();
    }
  });

  it("ids - leases of four writers never overlap, and every writer's book has next_id past all of them", async () => {
    const schema = stores.schema('leases');
    const writers = await Promise.all([1, 2, 3, 4].map((i) => stores.open({ schema, writerId: `w${i}` })));
    const leases = await Promise.all(writers.flatMap((w) => [w.leaseIds(10), w.leaseIds(3)]));
    const numbers = leases.flatMap((l) => (l.ok ? Array.from({ length: l.lease.to - l.lease.from }, (_, i) => l.lease.from + i) : []));
    expect(numbers).toHaveLength(52);
    expect(new Set(numbers).size).toBe(52);
    const top = Math.max(...numbers);
    for (const w of writers) expect((await w.load()).book.nextId).toBeGreaterThanOrEqual(top);
    const [seq] = await sql<{ last: string }>(`SELECT last_value AS last FROM "${schema}".skill_ids`);
    expect(Number(seq?.last)).toBe(top);
  });

  it("history - commits of every writer are one history that replays to each writer's book", async () => {
    const schema = stores.schema('history');
    const [a, b] = [await stores.open({ schema, writerId: 'a' }), await stores.open({ schema, writerId: 'b' })];
    const ids = createIdAllocator(0);
    for (let i = 0; i < 6; i += 1) {
      const w = i % 2 === 0 ? a : b;
      const r = await w.append(makeCommit((await w.load()).book, [addOp(`turn ${i}`)], { ids, basis: 'store' }).commit);
      expect(r.ok).toBe(true);
    }
    const commits = await readHistory(a, 4);
    expect(new Set(commits.map((c) => c.writerId))).toEqual(new Set(['a', 'b']));
    const replayed = replayHistory(commits);
    expect(replayed.ok && replayed.book.toJSON()).toBe((await b.load()).book.toJSON());
    expect((await backendsOf('a')).length).toBeGreaterThan(0);
  });
});
