import type { Skillbook } from '@cohort/skillbook';
import { isBase, rank, scoreBase } from './scoreBase.ts';
import type { BaseScore } from './scoreBase.ts';
import { sameSkill } from '../sequencing/contentConflicts.ts';

/** A version of the document that was on disk: one Cohort wrote (a checkpoint) or one another writer saved. */
export interface DocumentVersion {
  readonly source: 'cohort' | 'external';
  /** sha256 of the document's bytes (`null` for a revision rebuilt from the journal, whose bytes were not kept). */
  readonly digest: string | null;
  /** Its skills, as its writer wrote them (an external version keeps the writer's own ids). */
  readonly book: Skillbook;
  /** The store's revision when it was written or taken in. */
  readonly revision: number;
  /** Store clock time when it was written or first seen. */
  readonly at: number;
}

/** The version found to be a document's base, and how it scored. */
export interface BaseMatch {
  readonly version: DocumentVersion;
  readonly score: BaseScore;
  /**
   * A version Cohort wrote that explains the document just as well (`version` is then the other
   * writer's own last save): the writer loaded one of the two, and nothing tells which. Content
   * is reconciled against `version` (what the writer may not have seen of Cohort's is kept, a
   * conflict at worst), counters against the later of the two (no increment counted twice).
   */
  readonly tied?: DocumentVersion;
}

/** How many versions of each source the window keeps. */
export const VERSIONS_KEPT = { cohort: 8, external: 8 } as const;

/** Let a version be written this long after the newest change the document made on top of it (clocks of two processes). */
const CLOCK_SLACK_MS = 2;

/**
 * The versions a document another writer saves may have started from: the last
 * {@link VERSIONS_KEPT} documents this store wrote and the last ones other writers saved (a
 * long-running ACE saves from memory: its next save starts from its last). Bounded: at most
 * 16 books, which share structure with each other and with the live book (an external version
 * is kept as its base plus what it changed), so the memory kept is the skills in which they
 * differ. `find` scores each against the document ({@link scoreBase}) and returns the best
 * that qualifies, or `null`.
 */
export class BaseVersions {
  private versions: DocumentVersion[] = [];
  private rebuiltOnce = false;

  /** Whether the journal was searched for versions already (it is, at most once per open). */
  get rebuilt(): boolean {
    return this.rebuiltOnce;
  }

  /** Notes that the journal was searched. */
  markRebuilt(): void {
    this.rebuiltOnce = true;
  }

  /** Every version kept, oldest first. */
  get all(): readonly DocumentVersion[] {
    return this.versions;
  }

  /** Records a version; one of the same digest moves to the newest place. Evicts the oldest of its source past the bound. */
  keep(version: DocumentVersion): void {
    const at = this.versions.findIndex((v) =>
      version.digest === null ? v.digest === null && v.revision === version.revision : v.digest === version.digest,
    );
    if (at >= 0) this.versions.splice(at, 1);
    this.versions.push(version);
    const ofSource = this.versions.filter((v) => v.source === version.source);
    if (ofSource.length > VERSIONS_KEPT[version.source]) this.versions.splice(this.versions.indexOf(ofSource[0] as DocumentVersion), 1);
  }

  /** Records versions older than every kept one (rebuilt from the journal): the first to go past the bound. */
  keepOlder(older: readonly DocumentVersion[]): void {
    const known = new Set(this.versions.map((v) => v.digest));
    const kept = this.versions;
    this.versions = older.filter((v) => v.digest === null || !known.has(v.digest));
    for (const v of kept) this.keep(v);
  }

  /** Whether a version with sha256 `digest` is kept. */
  knows(digest: string): boolean {
    return this.versions.some((v) => v.digest === digest);
  }

  /**
   * The version `disk` (saved by another writer, with sha256 `digest`; in Cohort's ids as far
   * as known, `stillOld` the skills it holds under the writer's own) most likely started from,
   * or `null` when none qualifies.
   */
  find(disk: Skillbook, digest: string, stillOld: ReadonlyMap<string, string> = NONE): BaseMatch | null {
    const same = this.versions.find((v) => v.digest === digest);
    if (same) return { version: same, score: scoreBase(same.book, disk) };
    return BaseVersions.best(this.versions, disk, stillOld);
  }

  /**
   * The best of `candidates` (oldest first) as the base of `disk`: the highest {@link rank}
   * among those that qualify ({@link isBase}). On a tie: one whose id counter the document's can
   * have come from ({@link explainsCounter}); then not one written after the document's newest
   * change (the writer cannot have loaded it); then one that holds a skill of the document the
   * other counts as the writer's addition ({@link sawMore}: the writer cannot have made that
   * skill itself, so it loaded a version holding it); then the other writer's own save over a
   * version Cohort wrote — they differ only in skills the writer changed too, and taking the
   * writer's save keeps Cohort's changes of them (a conflict at worst), where taking Cohort's
   * version would let a writer that never saw it overwrite them; then the newest. A version
   * Cohort wrote never ties with the writer's save when it holds, under the ids Cohort gave
   * them, skills the writer still holds under its own: the writer did not load it.
   */
  static best(candidates: readonly DocumentVersion[], disk: Skillbook, stillOld: ReadonlyMap<string, string> = NONE): BaseMatch | null {
    const scored = candidates
      .map((version) => ({ version, score: scoreBase(version.book, disk) }))
      .filter((c) => isBase(c.score, c.version.book.size));
    let best: Ranked | null = null;
    for (let i = scored.length - 1; i >= 0; i -= 1) {
      const { version, score } = scored[i] as BaseMatch;
      const next: Ranked = {
        match: { version, score },
        rank: rank(score),
        late: isLate(version, score),
        counter: explainsCounter(version, score, disk),
      };
      if (!best || next.rank > best.rank || (next.rank === best.rank && tieBreak(next, best, disk))) best = next;
    }
    if (best?.match.version.source !== 'external') return best?.match ?? null;
    const top = best.rank;
    // the newest version Cohort wrote that explains the document as well
    const tied = [...scored]
      .reverse()
      .find(
        (c) =>
          c.version.source === 'cohort' &&
          rank(c.score) === top &&
          !isLate(c.version, c.score) &&
          explainsCounter(c.version, c.score, disk) &&
          !renamedSince(c.version, stillOld),
      );
    return tied ? { ...best.match, tied: tied.version } : best.match;
  }
}

/** No skill held under the writer's own id (see {@link BaseVersions.best}). */
const NONE: ReadonlyMap<string, string> = new Map();

/** Whether `version` holds under Cohort's id a skill the document still holds under the writer's own. */
function renamedSince(version: DocumentVersion, stillOld: ReadonlyMap<string, string>): boolean {
  for (const [old, renamed] of stillOld) if (version.book.has(renamed) && !version.book.has(old)) return true;
  return false;
}

/** Whether `version` was written after the document's newest change on top of it (so the writer cannot have loaded it). */
function isLate(version: DocumentVersion, score: BaseScore): boolean {
  return score.newestChange !== '' && version.at > Date.parse(score.newestChange) + CLOCK_SLACK_MS;
}

/** A candidate as {@link BaseVersions.best} weighs it. */
interface Ranked {
  readonly match: BaseMatch;
  readonly rank: number;
  readonly late: boolean;
  readonly counter: boolean;
}

/**
 * Whether the document's id counter (`next_id`) can have come from `version`'s: a writer
 * counts on from the counter of the document it loaded, one id per skill it adds (and never
 * back). A version whose counter lies further behind than the skills the document added
 * cannot be where the writer started — say, its own last save, while the document it did load
 * had the counter moved past the id leases Cohort's runtimes hold.
 */
function explainsCounter(version: DocumentVersion, score: BaseScore, disk: Skillbook): boolean {
  return disk.nextId - version.book.nextId <= score.added;
}

/**
 * Whether `match` holds, as the document does, a skill of the document that `other` counts as
 * added on top of it. Such a skill (one Cohort added, say, that the writer then retired) is not
 * the writer's own: it came from a version that held it. Without this, a document saved from
 * Cohort's version ties with the writer's own older save that lacks the skill — one change on
 * top of either — and the tie would go to the writer's save, which never had the skill: its
 * change of the skill would be a conflict with no base instead of a change to take in.
 */
function sawMore(match: BaseMatch, other: BaseScore, disk: Skillbook): boolean {
  return other.addedIds.some((id) => {
    const held = match.version.book.get(id);
    const d = disk.get(id);
    return held !== undefined && d !== undefined && sameSkill(held, d);
  });
}

/** Whether a candidate of equal rank beats the best so far (see {@link BaseVersions.best}). */
function tieBreak(next: Ranked, best: Ranked, disk: Skillbook): boolean {
  if (next.counter !== best.counter) return next.counter;
  if (next.late !== best.late) return !next.late;
  const nextSaw = sawMore(next.match, best.match.score, disk);
  if (nextSaw !== sawMore(best.match, next.match.score, disk)) return nextSaw;
  return next.match.version.source === 'external' && best.match.version.source === 'cohort';
}
