import type { Skillbook } from '@cohort/skillbook';
import { isBase, rank, scoreBase } from './scoreBase.ts';
import type { BaseScore } from './scoreBase.ts';

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
    const at = this.versions.findIndex((v) => (version.digest === null ? v.digest === null && v.revision === version.revision : v.digest === version.digest));
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

  /** The version `disk` (saved by another writer, with sha256 `digest`; in Cohort's ids as far as known) most likely started from, or `null` when none qualifies. */
  find(disk: Skillbook, digest: string): BaseMatch | null {
    const same = this.versions.find((v) => v.digest === digest);
    if (same) return { version: same, score: scoreBase(same.book, disk) };
    return BaseVersions.best(this.versions, disk);
  }

  /**
   * The best of `candidates` (oldest first) as the base of `disk`: the highest {@link rank}
   * among those that qualify ({@link isBase}); on a tie the newest, unless it was written after
   * the document's newest change (the writer cannot have loaded it).
   */
  static best(candidates: readonly DocumentVersion[], disk: Skillbook): BaseMatch | null {
    let best: { match: BaseMatch; rank: number; late: boolean } | null = null;
    for (let i = candidates.length - 1; i >= 0; i -= 1) {
      const version = candidates[i] as DocumentVersion;
      const score = scoreBase(version.book, disk);
      if (!isBase(score, version.book.size)) continue;
      const r = rank(score);
      const late = score.newestChange !== '' && version.at > Date.parse(score.newestChange) + CLOCK_SLACK_MS;
      if (!best || r > best.rank || (r === best.rank && best.late && !late)) best = { match: { version, score }, rank: r, late };
    }
    return best?.match ?? null;
  }
}

