import type { AppliedOp } from '@cohort/skillbook';
import type { SessionId } from './SessionId.ts';

/**
 * One contiguous block of the audit: ops written by one session (`path` names it, `name` is
 * its spawn option's), in the order they were applied, in ACE's operation JSON shape as
 * applied (final ids, normalised section and keywords, `at` timestamps). `revision` is the
 * revision at which the block landed in the book that holds this audit. Replaying a book's
 * audit in order on its initial book reproduces it; the root's blocks are what its store
 * persists (`rt.history()`).
 */
export interface AuditEntry {
  readonly revision: number;
  readonly sessionId: SessionId;
  readonly path: readonly SessionId[];
  readonly name?: string | undefined;
  readonly ops: readonly AppliedOp[];
}

/**
 * Entry `e` as it lands at `revision`, with `ops` (its own by default). A literal, not
 * `{ ...e, revision }`: on Node 20 a literal that starts with a spread and adds a key gets a
 * hidden class of its own per object (0.36 µs and 290 bytes against 0.01 µs and 65), and
 * every op of a fan-out is restamped at each level (bench row 2).
 */
export function entryAt(e: AuditEntry, revision: number, ops: readonly AppliedOp[] = e.ops): AuditEntry {
  return { revision, sessionId: e.sessionId, path: e.path, name: e.name, ops };
}

/** The ops of a list of entries, flattened in order. */
export function entryOps(entries: readonly AuditEntry[]): AppliedOp[] {
  const out: AppliedOp[] = [];
  for (const e of entries) for (const op of e.ops) out.push(op);
  return out;
}
