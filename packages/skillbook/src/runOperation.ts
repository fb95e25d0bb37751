/**
 * Runs one parsed operation, as `runOperations` runs a batch of it — the same scope and rules —
 * without the lists and results a batch needs: the write of one tool call.
 */
import type { BookReader, Changes, SkillEntry } from './internal/BookState.ts';
import type { ParsedOperation } from './parseOperation.ts';
import { RunScope, skippedOp } from './runOperations.ts';
import type { RunOptions } from './runOperations.ts';
import type { DraftOperationResult } from './SkillbookDraft.ts';

/** Who takes what a one-op run changed (a draft). */
export interface ChangesTaker {
  take(changes: Changes): void;
}

/**
 * Runs `op` against `base` (writing into `journal` in place when given, as `runOperations`
 * does); what it changed goes to `taker` before the op is reported. A refused op changes
 * nothing.
 */
export function runOperation(
  base: BookReader, op: ParsedOperation, options: RunOptions, journal: Map<string, SkillEntry> | null, taker: ChangesTaker,
): DraftOperationResult {
  const scope = spare ?? new RunScope(base, options, journal);
  if (scope === spare) scope.restart(base, options, journal);
  // taken while in use: a run inside a run (none today) would make a scope of its own
  spare = null;
  try {
    const outcome = scope.run(op);
    if ('error' in outcome) {
      scope.undo();
      return { ok: false, error: outcome.error };
    }
    if ('skipped' in outcome) return { ok: true, applied: null, skipped: skippedOp(op, outcome) };
    taker.take(scope.changes());
    return { ok: true, applied: outcome.applied, skipped: null };
  } catch (e) {
    scope.undo();
    throw e;
  } finally {
    scope.release();
    spare = scope;
  }
}

/**
 * The scope one-op runs reuse, released between runs: a scope (and its counts) per op was a
 * tenth of what an add_skill allocated, and a scope per draft kept 30 B per write alive.
 */
let spare: RunScope | null = null;
