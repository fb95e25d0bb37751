import { Skillbook } from '@cohort/skillbook';
import { commitOps } from './commitOps.ts';
import type { PersistedCommit } from './Store.ts';

/** The outcome of {@link replayHistory}: the book, or the first commit that does not replay and why. */
export type ReplayedHistory =
  | { readonly ok: true; readonly book: Skillbook }
  | { readonly ok: false; readonly book: Skillbook; readonly revision: number; readonly message: string };

/**
 * Replays persisted commits in order onto `from` (default: the empty book): a commit's ops
 * exactly, an external change adopted as recorded. Replaying a store's whole history
 * reproduces its book — every skill, field for field.
 *
 * @example
 * const commits = [];
 * for (let page = await store.history(); page.ok; page = await store.history({ after: page.next ?? 0 })) {
 *   commits.push(...page.commits);
 *   if (page.next === null) break;
 * }
 * const replayed = replayHistory(commits);
 */
export function replayHistory(commits: Iterable<PersistedCommit>, from: Skillbook = Skillbook.empty()): ReplayedHistory {
  let book = from;
  for (const commit of commits) {
    if (commit.kind === 'external') {
      const change = commit.external;
      if (!change)
        return {
          ok: false,
          book,
          revision: commit.revision,
          message: 'an external change recorded without its content (written by an older version)',
        };
      book = book.adopt({ skills: change.skills, purged: change.purged, nextId: change.nextId }, { revision: commit.revision });
      continue;
    }
    const replayed = book.replay(commitOps(commit));
    if (!replayed.ok) return { ok: false, book, revision: commit.revision, message: replayed.error.message };
    const missing = replayed.skipped.find((k) => k.code === 'no_skill');
    if (missing)
      return {
        ok: false,
        book,
        revision: commit.revision,
        message: `${missing.type} of a skill the history does not hold: ${missing.skillId ?? '(none)'}`,
      };
    book = replayed.book;
  }
  return { ok: true, book };
}
