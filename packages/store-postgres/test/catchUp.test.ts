/**
 * Catching up on other writers' commits from reads that overlap: a notification's read beside
 * a group waiting for the lock, and the group's own read once it holds it, both from the same
 * position. Each commit is taken in once, whichever read comes first, and a read that brings
 * nothing new changes nothing.
 */
import { afterEach, expect, it } from 'vitest';
import pg from 'pg';
import { CommitSequencer } from '@cohort/store/adapter';
import { addOp, makeCommit } from '@cohort/store/testing';
import { readHeadFrom, takeIn } from '../src/internal/catchUp.ts';
import { PgStores } from './utils/openPg.ts';
import { PG_URL } from './utils/pgSchema.ts';

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
