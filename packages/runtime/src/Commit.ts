import type { AuditEntry } from './AuditEntry.ts';
import type { SessionId } from './SessionId.ts';

/**
 * What a session sends its parent when its body has returned and its children have settled:
 * its draft's audit since `baseRevision` (its own writes and its children's merged entries,
 * in order), and the body's output. Drafts never cross an actor boundary; entries do.
 */
export interface Commit {
  readonly sessionId: SessionId;
  readonly path: readonly SessionId[];
  readonly baseRevision: number;
  readonly entries: readonly AuditEntry[];
  /** Sessions whose work is inside `entries` (merged descendants), for failure accounting. */
  readonly descendants: number;
  /**
   * Characters of the text of the ops in `entries` (what `limits.maxCommitBytes` is checked
   * against, see `Draft.textLength`): carried so that a parent that merges the whole commit
   * adds it up without reading every op's text again at every level.
   */
  readonly textLength: number;
  readonly output: unknown;
}
