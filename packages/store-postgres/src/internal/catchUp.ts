import type { PoolClient } from 'pg';
import type { Skillbook } from '@cohort/skillbook';
import { commitOps } from '@cohort/store';
import type { PersistedCommit } from '@cohort/store';
import type { CommitSequencer } from '@cohort/store/adapter';
import { inSchema } from './migrations.ts';
import { readBook, readHead } from './readBook.ts';
import type { HeadRead } from './readBook.ts';
import { HISTORY_SQL, commitOfRow } from './rows.ts';
import type { CommitRow } from './rows.ts';

/** Where a writer's view of the database stands: the sequencer's revision, and the newest lease it took in. */
export interface Position {
  leaseNumber: number;
}

/** What {@link catchUp} took in: other writers' commits (replayed or reloaded), and their leases. */
export interface CaughtUp {
  readonly from: number;
  readonly to: number;
  readonly commits: number;
  /** Writers whose commits were taken in (the last one first). */
  readonly writers: readonly string[];
  /** Whether the whole book was read again (the commits did not follow from ours). */
  readonly reloaded: boolean;
  /** The book once they were taken in (before anything of this writer's own on top). */
  readonly book: Skillbook;
}

/** Commits read per round trip while catching up. */
const PAGE = 500;

/**
 * Replays `commits` onto the sequencer in order, passing over those it holds already (taken in
 * meanwhile by another catch-up); `false` at the first one that does not follow (a reload is due).
 */
function replayInto(sequencer: CommitSequencer, commits: readonly PersistedCommit[]): boolean {
  for (const c of commits) {
    const book = sequencer.book;
    if (c.revision <= book.revision) continue;
    if (c.revision !== book.revision + 1 && !(c.kind === 'external' && c.revision > book.revision)) return false;
    if (c.kind === 'external') {
      if (!c.external) return false;
      sequencer.absorb(
        book.adopt({ skills: c.external.skills, purged: c.external.purged, nextId: c.external.nextId }, { revision: c.revision }),
      );
      continue;
    }
    const replayed = book.replay(commitOps(c));
    if (!replayed.ok || replayed.book.revision !== c.revision) return false;
    sequencer.advance(replayed.book);
  }
  return true;
}

/** Reads the head past the sequencer's position; with `lock`, begins the group's transaction and takes the book's lock first. */
export function readHeadFrom(
  client: PoolClient,
  schema: string,
  sequencer: CommitSequencer,
  position: Position,
  lock: boolean,
): Promise<HeadRead> {
  return readHead(client, schema, { revision: sequencer.book.revision, leaseNumber: position.leaseNumber, page: PAGE, lock });
}

/** What {@link takeIn} did with a read, and what is left: nothing, the next page of commits, or reading the whole book again. */
export interface TakenIn {
  readonly caught: CaughtUp;
  readonly rest: 'none' | 'page' | 'reload';
}

/**
 * Takes in what `read` holds, at once (no await, so nothing else moves the sequencer
 * meanwhile): the leases, the commits past the sequencer's revision up to the book row's, and
 * the id counter. Commits it holds already are passed over, so two reads that overlap (a
 * notification's and a group's) take each commit in once.
 */
export function takeIn(sequencer: CommitSequencer, position: Position, read: HeadRead): TakenIn {
  const from = sequencer.book.revision;
  const head = read.row;
  sequencer.takeLeases({ through: 0, ranges: [] }, read.leases.leases);
  position.leaseNumber = Math.max(position.leaseNumber, read.leases.last);
  const page = head ? read.commits.map(commitOfRow).filter((c) => c.revision <= head.revision) : [];
  const followed = replayInto(sequencer, page);
  const taken = page.filter((c) => c.revision > from && c.revision <= sequencer.book.revision);
  const writers: string[] = [];
  for (const c of taken) if (!writers.includes(c.writerId)) writers.unshift(c.writerId);
  if (head && head.nextId > sequencer.book.nextId) sequencer.advance(sequencer.book.reserveIds(head.nextId));
  const behind = head !== null && sequencer.book.revision < head.revision;
  const rest = !behind ? 'none' : followed && page.length > 0 ? 'page' : 'reload';
  const caught = { from, to: sequencer.book.revision, commits: taken.length, writers, reloaded: false, book: sequencer.book };
  return { caught, rest };
}

/**
 * Brings the sequencer up to the database: the commits other writers made since its revision
 * (replayed, so every skill's revisions are right for later conflict checks) and the leases
 * they were granted. Run on what {@link readHeadFrom} read with the book row locked (inside
 * the group's transaction), it is exact; run outside one (a notification, `load`), it takes in
 * what was committed so far. When what it reads does not follow from the sequencer's book, it
 * reads the whole book again. `lockedRead` is the group's read, made under the lock; without
 * one, the catch-up reads for itself, unlocked.
 */
export async function catchUp(
  client: PoolClient,
  schema: string,
  sequencer: CommitSequencer,
  position: Position,
  lockedRead?: HeadRead,
): Promise<CaughtUp> {
  const locked = lockedRead !== undefined;
  const first = lockedRead ?? (await readHeadFrom(client, schema, sequencer, position, false));
  const from = sequencer.book.revision;
  let taken = takeIn(sequencer, position, first);
  let commits = taken.caught.commits;
  const writers = [...taken.caught.writers];
  while (taken.rest === 'page') {
    const rows = (await client.query<CommitRow>(inSchema(HISTORY_SQL, schema), [sequencer.book.revision, PAGE])).rows;
    taken = takeIn(sequencer, position, { row: first.row, leases: { leases: [], last: position.leaseNumber }, commits: rows });
    commits += taken.caught.commits;
    for (const w of [...taken.caught.writers].reverse()) if (!writers.includes(w)) writers.unshift(w);
  }
  // a reload is due only past a book row that was read
  const reloaded = taken.rest === 'reload' && first.row !== null;
  // under the lock, the book is read again in the group's transaction; else in a snapshot of its own
  if (reloaded) await reload(client, schema, sequencer, first.row.revision, locked);
  return { from, to: sequencer.book.revision, commits, writers, reloaded, book: sequencer.book };
}

/**
 * Reads the whole book again and absorbs it (later commits based before it are checked by
 * content): in the transaction that holds the book's lock (`locked`), else in a snapshot of
 * its own, so that a commit landing between the reads is not half in it.
 */
async function reload(client: PoolClient, schema: string, sequencer: CommitSequencer, revision: number, locked: boolean): Promise<void> {
  const read = await readBook(client, schema, locked);
  if (!read) return;
  sequencer.takeLeases({ through: 0, ranges: [] }, read.leases);
  // a catch-up beside this one may have taken the sequencer past what was read: never back
  if (read.book.revision >= revision && read.book.revision >= sequencer.book.revision) sequencer.absorb(read.book);
}
