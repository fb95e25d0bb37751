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

/** Replays `commits` onto the sequencer in order; `false` at the first one that does not follow (a reload is due). */
function replayInto(sequencer: CommitSequencer, commits: readonly PersistedCommit[]): boolean {
  for (const c of commits) {
    const book = sequencer.book;
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

/**
 * Brings the sequencer up to the database: the commits other writers made since its revision
 * (replayed, so every skill's revisions are right for later conflict checks) and the leases
 * they were granted. Run on what {@link readHeadFrom} read with the book row locked (inside
 * the group's transaction), it is exact; run outside one (a notification, `load`), it takes in
 * what was committed so far. When what it reads does not follow from the sequencer's book, it
 * reads the whole book again.
 */
export async function catchUp(
  client: PoolClient,
  schema: string,
  sequencer: CommitSequencer,
  position: Position,
  read?: HeadRead,
): Promise<CaughtUp> {
  const from = sequencer.book.revision;
  const { row: head, leases, commits: firstPage } = read ?? (await readHeadFrom(client, schema, sequencer, position, false));
  const writers: string[] = [];
  let commits = 0;
  let reloaded = false;
  let rows: readonly CommitRow[] | null = firstPage;
  while (head && sequencer.book.revision < head.revision) {
    rows ??= (await client.query<CommitRow>(inSchema(HISTORY_SQL, schema), [sequencer.book.revision, PAGE])).rows;
    const page = rows.map(commitOfRow).filter((c) => c.revision <= head.revision);
    rows = null;
    if (page.length === 0 || !replayInto(sequencer, page)) {
      await reload(client, schema, sequencer, head.revision);
      reloaded = true;
      break;
    }
    commits += page.length;
    for (const c of page) if (!writers.includes(c.writerId)) writers.unshift(c.writerId);
  }
  // leases first: a reload takes in every lease itself
  sequencer.takeLeases({ through: 0, ranges: [] }, leases.leases);
  position.leaseNumber = leases.last;
  if (head && head.nextId > sequencer.book.nextId) sequencer.advance(sequencer.book.reserveIds(head.nextId));
  return { from, to: sequencer.book.revision, commits, writers, reloaded, book: sequencer.book };
}

/** Reads the whole book again and absorbs it (later commits based before it are checked by content). */
async function reload(client: PoolClient, schema: string, sequencer: CommitSequencer, revision: number): Promise<void> {
  const read = await readBook(client, schema, true);
  if (!read) return;
  sequencer.takeLeases({ through: 0, ranges: [] }, read.leases);
  if (read.book.revision >= revision) sequencer.absorb(read.book);
}
