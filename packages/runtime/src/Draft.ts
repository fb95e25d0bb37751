import type { AppliedOp, ApplyOptions, OperationFields, Skill, Skillbook, SkillbookDraft } from '@cohort/skillbook';
import type { AuditEntry } from './AuditEntry.ts';
import { entryAt, entryOps } from './AuditEntry.ts';
import type { Commit } from './Commit.ts';
import type { ConflictPolicy } from './ConflictPolicy.ts';
import type { MergeResult } from './mergeCommit.ts';
import { mergeCommit } from './mergeCommit.ts';
import type { SessionBatchResult, SessionOperationResult } from './Session.ts';
import type { SessionId } from './SessionId.ts';
import { opTextLength, textBytes, textLength } from './internal/textBytes.ts';

interface OpenEntry {
  revision: number;
  readonly sessionId: SessionId;
  readonly path: readonly SessionId[];
  readonly name: string | undefined;
  readonly ops: AppliedOp[];
}

/** The session a draft belongs to: its entries are attributed to it. */
export interface DraftOwner {
  readonly sessionId: SessionId;
  readonly path: readonly SessionId[];
  /** The session's name (spawn option), carried into its audit blocks. */
  readonly name?: string | undefined;
}

/**
 * A session's private draft: the book it started from (its parent's, by reference: no copy)
 * plus everything it wrote or merged since, with the audit of those changes in order. Only
 * its own session touches it; what leaves it is a {@link Commit}.
 *
 * Writes and merges go to one open {@link SkillbookDraft} (a journal over the start book), so
 * a write costs what applying its ops costs; a book value is built only when one is asked for
 * (`book`: a child spawns on it, or the body reads `s.book`) — never per write, never for
 * the commit, which carries entries, not a book.
 */
export class Draft {
  private readonly editor: SkillbookDraft;
  /** The audit of the draft's changes, in order: blocks of own writes between the merged commits' entries. */
  private readonly log: (AuditEntry | OpenEntry)[] = [];
  private open: OpenEntry | null = null;
  private ops = 0;
  private chars = 0;
  private descendants = 0;

  constructor(
    start: Skillbook,
    private readonly owner: DraftOwner,
  ) {
    this.editor = start.edit();
    this.baseRevision = start.revision;
  }

  /** The parent's revision this draft started from. */
  readonly baseRevision: number;

  /** The draft's current book, its own writes included (built now if it changed since last asked). */
  get book(): Skillbook {
    return this.editor.finish();
  }

  /** The draft's current revision (without building a book). */
  get revision(): number {
    return this.editor.revision;
  }

  /** ACE's `next_id` as the draft has it now: at or above the number of every id it holds. */
  get nextId(): number {
    return this.editor.nextId;
  }

  /** A skill as the draft has it now (without building a book). */
  get(id: string): Skill | undefined {
    return this.editor.get(id);
  }

  /** Ops in this draft: its own writes plus what its children merged into it. */
  get opCount(): number {
    return this.ops;
  }

  /** Characters of the text of the ops in this draft: UTF-8 bytes are at least this and at most three times it. */
  get textLength(): number {
    return this.chars;
  }

  /** UTF-8 bytes of the text of the ops in this draft (see `limits.maxCommitBytes`): counted now, so asked only near the limit. */
  textBytes(): number {
    let total = 0;
    for (const entry of this.log) total += textBytes(entry.ops);
    return total;
  }

  /** Sessions whose merged work is in this draft. */
  get descendantCount(): number {
    return this.descendants;
  }

  /** Applies a raw ACE batch, all or nothing; own writes between two merges form one entry. */
  write(raw: unknown, options: ApplyOptions): SessionBatchResult {
    const result = this.editor.applyBatch(raw, options);
    if (!result.ok) return { ok: false, error: result.error };
    for (const applied of result.applied) this.keepOwn(applied);
    return { ok: true, applied: result.applied, skipped: result.skipped };
  }

  /** Applies one op as {@link Draft.write} applies a batch of it (a tool call's write). */
  writeOperation(op: OperationFields, options: ApplyOptions): SessionOperationResult {
    const result = this.editor.applyOperation(op, options);
    if (result.ok && result.applied) this.keepOwn(result.applied);
    return result;
  }

  /** Keeps an op of an own write in the open entry (opened if none is), at the draft's revision. */
  private keepOwn(op: AppliedOp): void {
    if (this.open) this.open.ops.push(op);
    else {
      const { sessionId, path, name } = this.owner;
      this.open = { revision: 0, sessionId, path, name, ops: [op] };
      this.log.push(this.open);
    }
    this.open.revision = this.editor.revision;
    this.ops += 1;
    this.chars += opTextLength(op);
  }

  /** Merges a child's commit; on success its entries follow as one contiguous block. */
  merge(commit: Commit, policy: ConflictPolicy): MergeResult<SkillbookDraft> {
    const result = mergeCommit(this.editor, commit, policy);
    if (!result.ok) return result;
    this.descendants += 1 + commit.descendants;
    if (result.ops.length === 0) return result;
    this.open = null;
    for (const entry of result.entries) this.log.push(entry);
    this.ops += result.ops.length;
    // the commit's own count when none of its ops was dropped: no second read of every op's text
    this.chars += result.dropped.length === 0 ? commit.textLength : textLength(result.ops);
    return result;
  }

  /** Every op in the draft since its start book, in order, without closing the open entry (a copy of the draft elsewhere replays them). */
  allOps(): AppliedOp[] {
    return entryOps(this.log);
  }

  /**
   * The commit this draft amounts to. Its entries share the draft's op lists rather than copy
   * them: the open entry is closed first, so a later write starts a list of its own instead of
   * appending to one the commit holds.
   */
  toCommit(output: unknown): Commit {
    this.open = null;
    return {
      sessionId: this.owner.sessionId,
      path: this.owner.path,
      baseRevision: this.baseRevision,
      entries: this.log.map((e) => entryAt(e, e.revision)),
      descendants: this.descendants,
      textLength: this.chars,
      output,
    };
  }
}
