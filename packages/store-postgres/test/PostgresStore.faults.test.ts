import { afterEach, describe, expect, it } from 'vitest';
import pg from 'pg';
import type { StoreNotice } from '@cohort/store';
import { addOp, makeCommit } from '@cohort/store/testing';
import { PgProxy } from './utils/PgProxy.ts';
import { PgStores, backendsOf, until } from './utils/openPg.ts';
import { PG_URL, sql } from './utils/pgSchema.ts';

const stores = new PgStores();
let proxy: PgProxy | null = null;
afterEach(async () => {
  await proxy?.close();
  proxy = null;
  await stores.cleanup();
});

async function revisionIn(schema: string): Promise<number> {
  const [row] = await sql<{ revision: string }>(`SELECT revision FROM "${schema}".book`);
  return Number(row?.revision);
}

async function commitRows(schema: string): Promise<number> {
  const [row] = await sql<{ n: string }>(`SELECT count(*) AS n FROM "${schema}".commits`);
  return Number(row?.n);
}

/** Holds the book's row lock from another connection until `release` is called. */
async function holdBookLock(schema: string): Promise<{ release: () => Promise<void> }> {
  const client = new pg.Client({ connectionString: PG_URL });
  client.on('error', () => undefined);
  await client.connect();
  await client.query('BEGIN');
  await client.query(`SELECT 1 FROM "${schema}".book FOR UPDATE`);
  return {
    release: async () =>
      void (await client.query('ROLLBACK').then(
        () => client.end(),
        () => client.end(),
      )),
  };
}

describe('PostgresStore under faults', () => {
  it('killed backend - an append whose backend is terminated mid-transaction is an io failure, nothing of it is kept, and the next append lands', async () => {
    const schema = stores.schema('kill');
    const store = await stores.open({ schema, writerId: 'victim' });
    const book = (await store.load()).book;
    const lock = await holdBookLock(schema);
    const pending = store.append(makeCommit(book, [addOp('lost with its backend')]).commit);
    const waiting = await until(async () => (await backendsOf('victim')).find((b) => b.wait === 'Lock'));
    await sql('SELECT pg_terminate_backend($1)', [waiting.pid]);
    await lock.release();
    const result = await pending;
    expect(result.ok ? null : result.error.code).toBe('io');
    expect([await revisionIn(schema), await commitRows(schema), store.book.revision]).toEqual([0, 0, 0]);
    const next = await store.append(makeCommit(store.book, [addOp('after the kill')]).commit);
    expect(next.ok).toBe(true);
    expect([await revisionIn(schema), await commitRows(schema)]).toEqual([1, 1]);
  });

  it('lost answer - a COMMIT the server carried out but whose answer never came back is looked up and acknowledged, once', async () => {
    proxy = await PgProxy.start({ host: '127.0.0.1', port: Number(new URL(PG_URL).port || 5432) });
    const schema = stores.schema('lost');
    const store = await stores.open({ schema, url: proxy.urlFor(PG_URL), listen: false });
    proxy.cutAfterCommit(1);
    const made = makeCommit(store.book, [addOp('committed, answer lost')]);
    const result = await store.append(made.commit);
    expect(proxy.cutCommits).toBe(1);
    expect(result.ok).toBe(true);
    expect([await revisionIn(schema), await commitRows(schema)]).toEqual([1, 1]);
    const next = await store.append(makeCommit(store.book, [addOp('the next one')]).commit);
    expect(next.ok ? next.revision : null).toBe(2);
  });

  it('aborted at COMMIT - a backend killed while its COMMIT runs leaves nothing, and the append is refused as io', async () => {
    const schema = stores.schema('atcommit');
    const store = await stores.open({ schema, writerId: 'slowcommit' });
    // a deferred trigger makes COMMIT itself take a while: the backend is killed inside it
    await sql(`CREATE FUNCTION "${schema}".slow() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN PERFORM pg_sleep(30); RETURN NULL; END $$`);
    await sql(
      `CREATE CONSTRAINT TRIGGER slow AFTER INSERT ON "${schema}".commits DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION "${schema}".slow()`,
    );
    const pending = store.append(makeCommit(store.book, [addOp('killed in COMMIT')]).commit);
    // the group's write and its COMMIT go as one query: the backend sleeping in it is inside the COMMIT
    const committing = await until(async () => (await backendsOf('slowcommit')).find((b) => b.state === 'active' && b.wait === 'Timeout'));
    await sql('SELECT pg_terminate_backend($1)', [committing.pid]);
    const result = await pending;
    expect(result.ok ? null : result.error.code).toBe('io');
    expect([await revisionIn(schema), await commitRows(schema), store.book.revision]).toEqual([0, 0, 0]);
    await sql(`DROP TRIGGER slow ON "${schema}".commits`);
    expect((await store.append(makeCommit(store.book, [addOp('then')]).commit)).ok).toBe(true);
  });

  it('refused write - a write the server refuses (its COMMIT never runs) leaves nothing, the append is refused as io, and the next one lands', async () => {
    const schema = stores.schema('refused');
    const store = await stores.open({ schema, writerId: 'refused' });
    await sql(
      `CREATE FUNCTION "${schema}".refuse() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'refused by a trigger'; END $$`,
    );
    await sql(`CREATE TRIGGER refuse BEFORE INSERT ON "${schema}".commits FOR EACH ROW EXECUTE FUNCTION "${schema}".refuse()`);
    const result = await store.append(makeCommit(store.book, [addOp('refused')]).commit);
    expect(result.ok ? null : [result.error.code, /refused by a trigger/.test(result.error.message)]).toEqual(['io', true]);
    expect([await revisionIn(schema), await commitRows(schema), store.book.revision]).toEqual([0, 0, 0]);
    await sql(`DROP TRIGGER refuse ON "${schema}".commits`);
    const next = await store.append(makeCommit(store.book, [addOp('then')]).commit);
    expect(next.ok ? next.revision : null).toBe(1);
  });

  it('outage - appends during an outage resolve as io failures with a notice, and the store reconnects by itself', async () => {
    proxy = await PgProxy.start({ host: '127.0.0.1', port: Number(new URL(PG_URL).port || 5432) });
    const schema = stores.schema('outage');
    const store = await stores.open({ schema, url: proxy.urlFor(PG_URL), connectTimeoutMs: 500 });
    const notices: StoreNotice[] = [];
    store.notices$.subscribe((n) => notices.push(n));
    expect((await store.append(makeCommit(store.book, [addOp('before')]).commit)).ok).toBe(true);
    proxy.outage();
    const during = await Promise.all([0, 1, 2].map((i) => store.append(makeCommit(store.book, [addOp(`during ${i}`)]).commit)));
    expect(during.map((r) => (r.ok ? 'ok' : r.error.code))).toEqual(['io', 'io', 'io']);
    expect(notices.some((n) => n.type === 'store.io_failed' && !n.poisoned)).toBe(true);
    proxy.restore();
    const after = await store.append(makeCommit(store.book, [addOp('after')]).commit);
    expect(after.ok ? after.revision : null).toBe(2);
    expect(await commitRows(schema)).toBe(2);
  });

  it('unknown outcome - when the database cannot be asked whether a cut COMMIT landed, the store refuses every further append until reopened', async () => {
    proxy = await PgProxy.start({ host: '127.0.0.1', port: Number(new URL(PG_URL).port || 5432) });
    const schema = stores.schema('unknown');
    const store = await stores.open({ schema, url: proxy.urlFor(PG_URL), connectTimeoutMs: 200, inDoubtTimeoutMs: 300, listen: false });
    // the outage starts with the cut, in one step: no lookup of the outcome can get through first
    proxy.cutAfterCommit(1, { thenOutage: true });
    const cut = proxy;
    const pending = store.append(makeCommit(store.book, [addOp('in doubt')]).commit);
    const result = await pending;
    expect(cut.cutCommits).toBe(1);
    cut.outage();
    expect(result.ok ? null : [result.error.code, /reopen/.test(result.error.message)]).toEqual(['io', true]);
    cut.restore();
    const later = await store.append(makeCommit(store.book, [addOp('refused')]).commit);
    expect(later.ok ? null : later.error.code).toBe('io');
    // the server did commit it: a reopened store holds it
    const again = await stores.open({ schema });
    expect(again.book.revision).toBe(1);
  });

  it('close - waits for the appends in flight, each acknowledged only once committed', async () => {
    const schema = stores.schema('close');
    const store = await stores.open({ schema });
    const book = store.book;
    const pending = Array.from({ length: 10 }, (_, i) =>
      store.append(makeCommit(book, [addOp(`in flight ${i}`)], { basis: 'store' }).commit),
    );
    await store.close();
    const results = await Promise.all(pending);
    expect(results.filter((r) => r.ok)).toHaveLength(results.length);
    expect(await commitRows(schema)).toBe(10);
  });
});
