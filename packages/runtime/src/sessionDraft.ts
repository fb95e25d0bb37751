import type { AppliedOp, Conflict, SkillId } from '@cohort/skillbook';
import type { AuditEntry } from './AuditEntry.ts';
import type { FailureSeed } from './FailureSeed.ts';
import type { Session } from './Session.ts';
import { SessionHandle } from './internal/SessionHandle.ts';

/** What a session's draft holds beyond its start book: enough for a copy of its view elsewhere. */
export interface DraftView {
  /** The revision of the book the draft started from (its parent's, or the root book's). */
  readonly baseRevision: number;
  /** The draft's revision now: a commit made on this view is based on it. */
  readonly revision: number;
  /** Every op in the draft since its start book, in order (its own writes and merged commits'). */
  readonly ops: readonly AppliedOp[];
}

/**
 * Work a copy of a session did elsewhere (another process), on the view {@link draftView}
 * gave: its audit entries in order and how many descendant sessions' work they hold.
 */
export interface ForeignCommit {
  /** The `revision` of the view the copy started from. */
  readonly baseRevision: number;
  readonly entries: readonly AuditEntry[];
  readonly descendants: number;
}

/** What {@link adoptCommit} did: merged at `revision` with the ids its ADDs landed under, or refused whole. */
export type AdoptResult =
  | { readonly ok: true; readonly revision: number; readonly added: readonly SkillId[] }
  | {
      readonly ok: false;
      readonly code: 'session_ended' | 'conflict' | 'invalid_commit';
      readonly message: string;
      readonly conflicts?: readonly Conflict[];
    };

/**
 * The view of a session's draft now, or null for a session this runtime did not make. For
 * running a session's child in another process: the child there starts on the same book by
 * replaying `ops` on the book at `baseRevision`.
 *
 * @example
 * const rt = createRuntime();
 * await rt.run(async (s) => {
 *   await s.tools.add_skill({ section: 'harness', issue: 'a', insight: 'b' });
 *   draftView(s)?.ops.length; // 1
 * });
 */
export function draftView(session: Session): DraftView | null {
  if (!(session instanceof SessionHandle)) return null;
  const { draft } = session.node;
  return { baseRevision: draft.baseRevision, revision: draft.revision, ops: draft.allOps() };
}

/**
 * Merges into a session's draft the work a copy of it did elsewhere, with the conflict check of
 * a child's commit (policy `reject`: anything the draft changed since the copy's view refuses
 * the whole commit): its entries land as contiguous blocks, attributed as they are. Use it to
 * run a session's body in another process and bring its commit home; the session then commits
 * as usual.
 */
export function adoptCommit(session: Session, commit: ForeignCommit): AdoptResult {
  if (!(session instanceof SessionHandle)) return { ok: false, code: 'session_ended', message: 'not a session of this runtime' };
  const { node } = session;
  const ended = node.endedReason();
  if (ended) return { ok: false, code: 'session_ended', message: ended };
  const result = node.draft.merge(
    {
      sessionId: node.id,
      path: node.path,
      baseRevision: commit.baseRevision,
      entries: commit.entries,
      // a merge counts the committing session as one descendant more: here it is the session itself
      descendants: commit.descendants - 1,
      // an upper bound on the characters of text (the commit limit counts bytes exactly near it)
      textLength: JSON.stringify(commit.entries).length,
      output: undefined,
    },
    'reject',
  );
  if (!result.ok) {
    return result.kind === 'conflict'
      ? { ok: false, code: 'conflict', message: result.message, conflicts: result.conflicts }
      : { ok: false, code: 'invalid_commit', message: result.message };
  }
  const added: SkillId[] = [];
  for (const op of result.ops) if (op.type === 'ADD') added.push(op.skill_id as SkillId);
  return { ok: true, revision: node.draft.revision, added };
}

/**
 * Ends a running session with the failure a copy of it had elsewhere (another process): its
 * kind, category, message, error with its cause chain and conflicts, as if the session had
 * failed so itself — so its spawn's `retry` rule applies to that kind. A session no longer
 * running (its body returned, it ended) is left as it is: false.
 *
 * @example
 * const rt = createRuntime();
 * const outcome = await rt.run(async (root) =>
 *   root.spawn(async (s) => void failSession(s, { kind: 'timeout', category: 'interruption', message: 'timed out elsewhere' }), {
 *     retry: { attempts: 1 },
 *   }),
 * );
 * // the child ran twice (a timeout is retried) and failed as `timeout` both times
 */
export function failSession(session: Session, failure: FailureSeed): boolean {
  if (!(session instanceof SessionHandle) || session.node.state !== 'running') return false;
  session.node.tell({ type: 'FAILED_ELSEWHERE', failure });
  return true;
}
