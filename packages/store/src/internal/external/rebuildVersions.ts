/**
 * The versions of the document the journal rebuilds, for finding the version another writer's
 * save started from when none of those kept in memory qualifies — typically after a restart:
 * the store keeps no copy of the documents it wrote or the other writers saved, the journal
 * replays any revision, and each change it took in from another program records that
 * program's document as a change against the version it was reconciled against.
 */
import { Skillbook } from '@cohort/skillbook';
import type { DocumentVersion } from './BaseVersions.ts';
import { VERSIONS_KEPT } from './BaseVersions.ts';
import { opsOfLine } from '../journal/JournalLine.ts';
import type { Theirs } from '../journal/JournalLine.ts';
import { adoptExternal } from '../journal/JournalReplay.ts';
import type { DiskView } from '../disk/DiskView.ts';
import type { Renumbered } from '../disk/Ledger.ts';
import { readOrigin } from '../journal/originFile.ts';
import { RecentMap } from './RecentMap.ts';
import { scanJournal } from '../journal/scanJournal.ts';
import type { StoreContext } from '../worker/StoreContext.ts';

/** How many of the last revisions a rebuild keeps (books that share structure): the bases of the changes taken in, and the candidates. */
export const REVISIONS_REBUILT = 64;

/** What a rebuild found. */
export interface RebuiltVersions {
  /**
   * The books of the revisions the document held among the last {@link REVISIONS_REBUILT} — the ones the
   * ledger remembers Cohort writing, and those of the changes taken in (each wrote the
   * document) — oldest first: only a document that was on disk can be what another writer loaded.
   */
  readonly candidates: readonly DocumentVersion[];
  /** The other writers' last saves the journal recorded (at most {@link VERSIONS_KEPT}), oldest first. */
  readonly externals: readonly DocumentVersion[];
  /** Every renumbering the journal recorded, oldest first. */
  readonly renumbered: readonly Renumbered[];
}

/** The book of another writer's document: `from` (the version it was reconciled against) with its recorded change taken in. */
export function applyTheirs(from: Skillbook, theirs: Theirs): Skillbook {
  return from.adopt({ skills: theirs.skills, purged: theirs.purged, nextId: theirs.next }, { revision: from.revision });
}

/**
 * Replays the history from what the store was created with through the journal up to the view's
 * end, keeping the books of the last revisions the document held and the other writers' saves,
 * rebuilt. `null`
 * when the history cannot be replayed (a journal of the first format, which did not record
 * what it took in, or an unreadable origin). Reads the whole journal: O(history), at most once
 * per open. Memory: {@link REVISIONS_REBUILT} + {@link VERSIONS_KEPT} books that share structure.
 */
export async function rebuildVersions(ctx: StoreContext, view: DiskView): Promise<RebuiltVersions | null> {
  const origin = await readOrigin(ctx.fs, ctx.paths);
  if (!origin.ok) return null;
  const bytes = ((await ctx.fs.readFrom(ctx.paths.journal, 0)) ?? new Uint8Array(0)).subarray(0, view.journalEnd);
  const scan = scanJournal(bytes);
  if (scan.corruption) return null;
  let book = origin.origin?.book ?? Skillbook.empty();
  const revisions = new RecentMap<number, Skillbook>(REVISIONS_REBUILT);
  const written = new Set([book.revision, ...view.ledger.checkpoints]);
  const externals = new RecentMap<string, DocumentVersion>(VERSIONS_KEPT.external);
  const renumbered: Renumbered[] = [];
  revisions.set(book.revision, book);
  for (const { line } of scan.entries) {
    if (line.t === 'mark') return null;
    if (line.t === 'commit') {
      const replayed = book.replay(opsOfLine(line));
      if (!replayed.ok) return null;
      book = replayed.book;
    } else if (line.t === 'lease') {
      book = book.reserveIds(line.to - 1);
    } else {
      const before = book;
      book = adoptExternal(book, line);
      const theirs = line.theirs;
      const from = !theirs
        ? undefined
        : theirs.base === null
          ? before
          : theirs.base.source === 'external'
            ? externals.get(theirs.base.digest ?? '')?.book
            : revisions.get(theirs.base.rev);
      if (theirs && from)
        externals.set(theirs.digest, {
          source: 'external',
          digest: theirs.digest,
          book: applyTheirs(from, theirs),
          revision: line.rev,
          at: line.at,
        });
      written.add(line.rev);
      for (const [was, to] of line.renumbered) {
        const skill = line.skills.find((s) => s.id === to);
        if (skill) renumbered.push({ from: was, createdAt: skill.created_at, to });
      }
    }
    revisions.set(book.revision, book);
  }
  const candidates = [...revisions.entries()]
    .filter(([revision]) => written.has(revision))
    .map(([revision, b]): DocumentVersion => ({ source: 'cohort', digest: null, book: b, revision, at: 0 }));
  return { candidates, externals: [...externals.values()], renumbered };
}
