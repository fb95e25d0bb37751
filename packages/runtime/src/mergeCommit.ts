import type { AppliedOp, Conflict, Skill, Skillbook, SkillbookErrorInfo } from '@cohort/skillbook';
import type { AuditEntry } from './AuditEntry.ts';
import { entryAt, entryOps } from './AuditEntry.ts';
import type { Commit } from './Commit.ts';
import type { ConflictPolicy } from './ConflictPolicy.ts';

/**
 * What a commit merges into: a book (`Skillbook`, the merge returns a new one) or an open
 * draft of one (`SkillbookDraft`, changed in place and returned; left unchanged on refusal).
 */
export interface MergeTarget<B> {
  readonly revision: number;
  get(id: string): Skill | undefined;
  conflicts(ops: readonly AppliedOp[], baseRevision: number): Conflict[];
  replay(ops: readonly AppliedOp[]): { readonly ok: true; readonly book: B } | { readonly ok: false; readonly error: SkillbookErrorInfo };
}

/** What a supervisor decided to merge of a commit: its entries less the dropped ops. */
export interface MergeDecision {
  readonly ok: true;
  /** The commit's entries as they land (dropped ops removed); restamped with the new revision once applied. */
  readonly entries: readonly AuditEntry[];
  readonly ops: readonly AppliedOp[];
  readonly dropped: readonly Conflict[];
}

/** A commit refused as a whole. */
export type MergeRefusal =
  | { readonly ok: false; readonly kind: 'conflict'; readonly conflicts: readonly Conflict[]; readonly message: string }
  | { readonly ok: false; readonly kind: 'invalid_commit'; readonly message: string; readonly opIndex?: number };

/** The result of merging one commit into a book: the whole commit (less dropped ops) or nothing. */
export type MergeResult<B = Skillbook> = (MergeDecision & { readonly book: B }) | MergeRefusal;

/**
 * Merges a child's commit into `book` (its parent's draft, or the root book): checks every op
 * against what changed since the commit's base revision (docs/internals/conflicts.md), applies the
 * policy, then applies the kept ops atomically as one revision. An empty commit (or one whose
 * ops were all dropped) changes nothing and keeps the revision.
 */
export function mergeCommit<B extends MergeTarget<B>>(book: B, commit: Commit, policy: ConflictPolicy): MergeResult<B> {
  const decision = decideMerge(book, commit, policy);
  if (!decision.ok) return decision;
  if (decision.ops.length === 0) return { ...decision, book };
  const applied = book.replay(decision.ops);
  if (!applied.ok) {
    const { message, opIndex } = applied.error;
    return {
      ok: false,
      kind: 'invalid_commit',
      message: `commit of ${commit.sessionId} cannot be applied: ${message}`,
      ...(opIndex !== undefined ? { opIndex } : {}),
    };
  }
  const revision = applied.book.revision;
  const entries = decision.entries.map((e) => entryAt(e, revision));
  return { ok: true, book: applied.book, entries, ops: decision.ops, dropped: decision.dropped };
}

/**
 * The first half of {@link mergeCommit}: the conflict check and the policy, without applying
 * anything. The runtime's root hands the decided ops to the store, which applies them itself.
 */
export function decideMerge(
  book: Pick<MergeTarget<unknown>, 'get' | 'conflicts'>,
  commit: Commit,
  policy: ConflictPolicy,
): MergeDecision | MergeRefusal {
  const ops = entryOps(commit.entries);
  const conflicts = ops.length === 0 ? [] : book.conflicts(ops, commit.baseRevision);
  const decision = decide(book, ops, conflicts, policy);
  if (decision.reject) {
    return {
      ok: false,
      kind: 'conflict',
      conflicts,
      message: `commit of ${commit.sessionId} conflicts: ${conflicts.map(describeConflict).join('; ')}`,
    };
  }
  const kept = decision.drop.size === 0 ? commit.entries : withoutOps(commit.entries, decision.drop);
  const keptOps = decision.drop.size === 0 ? ops : entryOps(kept);
  return { ok: true, entries: keptOps.length === 0 ? [] : kept, ops: keptOps, dropped: decision.dropped };
}

/**
 * A conflict in one line, for messages: `UPDATE context-00001: removed since the session started`.
 * No number: `c.revision` is the book's revision for a root session's commit and a step of the
 * parent's draft for a child's, and a message read without that context would mix the two up.
 */
export function describeConflict(c: Conflict): string {
  return `${c.type} ${c.skillId}: ${c.reason.replace('_', ' ')} since the session started`;
}

interface Decision {
  readonly reject: boolean;
  readonly drop: ReadonlySet<number>;
  readonly dropped: readonly Conflict[];
}

/** The decisions that drop nothing, shared (every merge of a fan-out makes one; nothing writes to them). */
const KEEP_ALL: Decision = Object.freeze({ reject: false, drop: new Set<number>(), dropped: Object.freeze([]) });
const REJECT: Decision = Object.freeze({ reject: true, drop: KEEP_ALL.drop, dropped: KEEP_ALL.dropped });

function decide(book: Pick<Skillbook, 'get'>, ops: readonly AppliedOp[], conflicts: readonly Conflict[], policy: ConflictPolicy): Decision {
  if (conflicts.length === 0) return KEEP_ALL;
  if (policy === 'reject') return REJECT;
  const drop = new Set<number>();
  const dropped: Conflict[] = [];
  for (const c of conflicts) {
    const verdict = verdictFor(book, ops, c, policy);
    if (verdict === 'reject') return REJECT;
    // an ADD whose id now exists can never be kept: the book would hold two skills with one id
    if (verdict === 'drop' || c.reason === 'id_exists') {
      drop.add(c.opIndex);
      dropped.push(c);
    }
  }
  return { reject: false, drop, dropped };
}

function verdictFor(
  book: Pick<Skillbook, 'get'>,
  ops: readonly AppliedOp[],
  c: Conflict,
  policy: ConflictPolicy,
): 'keep' | 'drop' | 'reject' {
  if (policy === 'rebase') return 'drop';
  if (policy === 'last-writer-wins') return 'keep';
  if (policy === 'reject') return 'reject';
  const op = ops[c.opIndex];
  if (!op) return 'reject';
  try {
    return policy(c, { op, current: book.get(c.skillId) });
  } catch {
    // a resolver that throws cannot decide: refuse the commit rather than guess
    return 'reject';
  }
}

function withoutOps(entries: readonly AuditEntry[], drop: ReadonlySet<number>): AuditEntry[] {
  const out: AuditEntry[] = [];
  let index = 0;
  for (const e of entries) {
    const ops = e.ops.filter(() => !drop.has(index++));
    if (ops.length > 0) out.push(entryAt(e, e.revision, ops));
  }
  return out;
}
