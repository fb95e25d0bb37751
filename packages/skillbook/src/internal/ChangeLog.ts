/**
 * Which skills changed in a book's recent revisions: a bounded, persistent log kept with every
 * book version, so that a conflict check (`book.conflicts(ops, base)`) can settle most ops
 * from the few ids that changed after `base` instead of looking each up in the whole book.
 *
 * Why: only a skill whose content or active flag changed after `base`, or that was purged
 * after it, can make an UPDATE or a REMOVE conflict. Looking an op's id up in the skills trie
 * is the same work at any size, but in a book of 100,000 skills (tens of MB) it is a chain of
 * four or five dependent reads that miss the CPU caches. The log holds the ids' hashes
 * (`keyHash`, small integers stored unboxed), not the id strings: gathering and probing them
 * reads a few contiguous arrays, never a string scattered somewhere in the book. A hash that
 * matches only means "look this op up": the answer is exact either way.
 *
 * The log is a chain of records, newest first, one per commit that changed some skill's
 * content or active flag (an ADD does) or purged skills; a commit of TAGs only adds none.
 * It keeps two generations of at most {@link GENERATION_RECORDS} records and
 * {@link GENERATION_IDS} ids each: when the newest is full, it becomes the older one and the
 * one before is dropped, so a book version holds at most 64 records, and a commit adds one
 * small record and the log's header (nothing is copied). A
 * question about a base older than the log reaches is not answered (`null`): the caller then
 * looks every op up, as it would without the log.
 */
import { keyHash } from './ShardedMap.ts';

/** What one commit changed (or one draft's commits, finished together). */
export interface ChangeRecord {
  /** The revision the changes made. */
  readonly revision: number;
  /**
   * The book's `next_id` before them. Every change since then is in this record or a newer
   * one (only commits of TAGs lie between records).
   */
  readonly nextIdBefore: number;
  /** `keyHash` of each id whose content or active flag changed, or that was purged. */
  readonly hashes: readonly number[];
  /** The record before this one in its generation (`null` for a generation's first). */
  readonly older: ChangeRecord | null;
  /** Records and ids in the generation up to this one, this one included. */
  readonly depth: number;
  readonly total: number;
}

/** A book's log: every change after revision `since` is in `recent` or `previous`. */
export interface ChangeLog {
  readonly since: number;
  /** The newest generation, and where its coverage starts (the `since` once it is older). */
  readonly recent: ChangeRecord | null;
  readonly recentSince: number;
  readonly previous: ChangeRecord | null;
}

/** Records per generation. */
export const GENERATION_RECORDS = 32;
/** Ids per generation; a single commit that changed more starts an empty log. */
export const GENERATION_IDS = 2048;

/** The log of a book made at `revision` with no history (empty, or read from a document). */
export function emptyChangeLog(revision: number): ChangeLog {
  return Object.freeze({ since: revision, recent: null, recentSince: revision, previous: null });
}

/** What {@link appendChange} records: a commit of the book at revision `from`. */
export interface Change {
  readonly from: number;
  readonly revision: number;
  readonly nextIdBefore: number;
  readonly hashes: readonly number[];
}

/**
 * The log after a commit. O(1): one small record (the hashes array is taken, not copied, and
 * frozen). A commit that changed no skill's content or active flag (so added no skill either)
 * leaves the log as it is.
 */
export function appendChange(log: ChangeLog, change: Change): ChangeLog {
  const count = change.hashes.length;
  if (count === 0) return log;
  if (count > GENERATION_IDS) return emptyChangeLog(change.revision);
  const recent = log.recent;
  const full = recent !== null && (recent.depth >= GENERATION_RECORDS || recent.total + count > GENERATION_IDS);
  const older = full ? null : recent;
  const record: ChangeRecord = Object.freeze({
    revision: change.revision,
    nextIdBefore: change.nextIdBefore,
    hashes: Object.freeze(change.hashes),
    older,
    depth: (older?.depth ?? 0) + 1,
    total: (older?.total ?? 0) + count,
  });
  if (!full) return Object.freeze({ since: log.since, recent: record, recentSince: log.recentSince, previous: log.previous });
  // the newest generation becomes the older one; the one before it is dropped
  return Object.freeze({ since: log.recentSince, recent: record, recentSince: change.from, previous: recent });
}

/**
 * The ids that changed after `base`, as far as a conflict check needs them: `has(id)` false
 * means the id's content, active flag and tombstone are all at or before `base`.
 */
export class ChangedAfter {
  constructor(
    /** `keyHash` of every id that changed (`null`: none did). */
    private readonly hashes: ReadonlySet<number> | null,
    /** A draft's journal: every id it wrote (a superset is fine: it only means a closer look). */
    private readonly journal: ReadonlyMap<string, unknown> | null,
    /**
     * The book's `next_id` at a point after which every change is in this set: an id whose
     * numeric suffix is larger did not exist then (nor ever before: a book keeps `next_id` at
     * or above the suffix of every id it has or had), so it exists now only if it is in the set.
     */
    readonly nextIdBound: number,
  ) {}

  /** Whether `id` may have changed after the base (`false`: certainly not). */
  has(id: string): boolean {
    return (this.hashes !== null && this.hashes.size > 0 && this.hashes.has(keyHash(id))) || (this.journal?.has(id) ?? false);
  }
}

/**
 * The ids changed after `base`, or `null` when the log does not reach back to `base` or more
 * than `budget` ids changed since (then looking each op up costs less than gathering them).
 * `nextId` is the book's current `next_id`; `journal`, a draft's ids written since the book.
 * O(ids changed after base).
 */
export function changedAfter(
  log: ChangeLog,
  base: number,
  budget: number,
  nextId: number,
  journal: ReadonlyMap<string, unknown> | null = null,
): ChangedAfter | null {
  if (!(base >= log.since)) return null;
  const walk = new Walk(base, budget);
  if (walk.generation(log.recent)) walk.generation(log.previous);
  if (walk.over) return null;
  const oldest = walk.oldest;
  if (oldest === null) return new ChangedAfter(null, journal, nextId);
  // every change since `oldest` began is in the set (the whole of `oldest` is, even where a
  // draft's commits finished together put `base` inside it)
  return new ChangedAfter(walk.hashes, journal, oldest.nextIdBefore);
}

/** Gathers the hashes of the records newer than `base`, newest first. */
class Walk {
  readonly hashes = new Set<number>();
  oldest: ChangeRecord | null = null;
  over = false;
  private count = 0;

  constructor(
    private readonly base: number,
    private readonly budget: number,
  ) {}

  /** Walks one generation; returns whether the walk goes on to the older one. */
  generation(head: ChangeRecord | null): boolean {
    for (let r = head; r !== null; r = r.older) {
      if (r.revision <= this.base) return false;
      this.count += r.hashes.length;
      if (this.count > this.budget) {
        this.over = true;
        return false;
      }
      for (const h of r.hashes) this.hashes.add(h);
      this.oldest = r;
    }
    return true;
  }
}
