import { describeLoneSurrogate, loneSurrogate } from '@cohort/skillbook';
import type { CommitRecord } from '../Store.ts';

/**
 * Why a commit's text cannot be stored, or `null`: a lone surrogate anywhere in it (an op's
 * text, a session's id, path or name). The journal would keep it as a `\udXXX` escape while
 * the document (UTF-8) and PostgreSQL hold U+FFFD, so one book would read back two ways.
 *
 * @example
 * illFormedText(commit); // 'commit of s1: entries[0].ops[0].issue: a lone surrogate (\\ud800) at character 5 is not Unicode text'
 */
export function illFormedText(commit: CommitRecord): string | null {
  const found =
    loneSurrogate(commit.sessionId, 'sessionId') ?? loneSurrogate(commit.path, 'path') ?? loneSurrogate(commit.entries, 'entries');
  return found ? `commit of ${commit.sessionId}: ${describeLoneSurrogate(found)}` : null;
}
