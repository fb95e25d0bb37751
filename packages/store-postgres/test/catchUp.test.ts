/**
 * Catching up on other writers' commits from reads that overlap: a notification's read beside
 * a group waiting for the lock, and the group's own read once it holds it, both from the same
 * position. Each commit is taken in once, whichever read comes first, and a read that brings
 * nothing new changes nothing. And a catch-up outside a group's transaction that has to read
 * the whole book again reads it in one snapshot, whatever another writer commits meanwhile.
 */
import { afterEach, expect, it } from 'vitest';
import pg from 'pg';
import type { PoolClient } from 'pg';
import { CommitSequencer } from '@cohort/store/adapter';
import { addOp, makeCommit } from '@cohort/store/testing';
import { catchUp, readHeadFrom, takeIn } from '../src/internal/catchUp.ts';
import { PgStores } from './utils/openPg.ts';
import { PG_URL, sql } from './utils/pgSchema.ts';

const stores = new PgStores();
afterEach(() => stores.cleanup());

it('catch-up - two reads from the same position take each commit in once, in either order', async () => {
  const schema = stores.schema('overlap');
  const writer = await stores.open({ schema, writerId: 'writer', listen: false });
  const empty = writer.book;
  const pool = new pg.Pool({ connectionString: PG_URL, max: 1 });
  const client = await pool.connect();
  try {
    const sequencer = new CommitSequencer(empty);
    const position = { leaseNumber: 0 };
    for (const issue of ['one', 'two']) expect((await writer.append(makeCommit(writer.book, [addOp(issue)]).commit)).ok).toBe(true);
    const early = await readHeadFrom(client, schema, sequencer, position, false);
    expect((await writer.append(makeCommit(writer.book, [addOp('three')]).commit)).ok).toBe(true);
    const late = await readHeadFrom(client, schema, sequencer, position, false);

    // the later read first: all three; then the earlier one brings nothing
    const first = takeIn(sequencer, position, late);
    expect([first.caught.from, first.caught.to, first.caught.commits, first.rest]).toEqual([0, 3, 3, 'none']);
    const book = sequencer.book;
    const again = takeIn(sequencer, position, early);
    expect([again.caught.commits, again.rest, sequencer.book === book]).toEqual([0, 'none', true]);
    expect(sequencer.book.toJSON()).toBe(writer.book.toJSON());

    // from the start again, in the order they were read: two, then the third alone
    const other = new CommitSequencer(empty);
    const at = { leaseNumber: 0 };
    expect(takeIn(other, at, early).caught.commits).toBe(2);
    const rest = takeIn(other, at, late);
    expect([rest.caught.from, rest.caught.commits, rest.caught.writers]).toEqual([2, 1, ['writer']]);
    expect(other.book.toJSON()).toBe(writer.book.toJSON());
  } finally {
    client.release();
    await pool.end();
  }
});

it('catch-up - a book read again outside a transaction is one snapshot: a commit landing between its statements is taken in once, after it', async () => {
  const schema = stores.schema('reread');
  const writer = await stores.open({ schema, writerId: 'writer', listen: false });
  const empty = writer.book;
  for (const issue of ['one', 'two']) expect((await writer.append(makeCommit(writer.book, [addOp(issue)]).commit)).ok).toBe(true);
  const id = [...writer.book.skills()][0]?.id ?? '';
  // a gap in the history (revision 1 gone): a reader at revision 0 must read the whole book again
  await sql(`DELETE FROM "${schema}".audit_blocks WHERE revision = 1; DELETE FROM "${schema}".commits WHERE revision = 1`);
  const pool = new pg.Pool({ connectionString: PG_URL, max: 1 });
  const client = await pool.connect();
  let landed = false;
  // once the book's row has been read again, the writer tags a skill before the skills are read
  const between = new Proxy(client, {
    get(target, key) {
      if (key !== 'query') return Reflect.get(target, key);
      return async (...args: Parameters<PoolClient['query']>) => {
        const result = await (target.query as (...a: unknown[]) => Promise<unknown>)(...args);
        if (!landed && typeof args[0] === 'string' && /^SELECT revision, next_id\b[^;]*$/.test(args[0])) {
          landed = true;
          expect((await writer.append(makeCommit(writer.book, [{ type: 'TAG', skill_id: id, metadata: { delta: 1 } }]).commit)).ok).toBe(
            true,
          );
        }
        return result;
      };
    },
  });
  try {
    const sequencer = new CommitSequencer(empty);
    const position = { leaseNumber: 0 };
    const first = await catchUp(between, schema, sequencer, position);
    expect([landed, first.reloaded, first.to]).toEqual([true, true, 2]);
    const second = await catchUp(client, schema, sequencer, position);
    expect(second.to).toBe(3);
    expect(writer.book.get(id)?.helpful_count).toBe(1);
    expect(sequencer.book.get(id)?.helpful_count).toBe(1);
    expect(sequencer.book.toJSON()).toBe(writer.book.toJSON());
  } finally {
    client.release();
    await pool.end();
  }
});
