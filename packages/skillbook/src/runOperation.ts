/**
 * Runs one parsed operation, as `runOperations` runs a batch of it — the same scope and rules —
 * without the lists and results a batch needs: the write of one tool call.
 */
import type { BookReader, Changes, Journal } from './internal/BookState.ts';
import { NO_ENTRIES, RunScope } from './internal/RunScope.ts';
import type { OpenChanges, RunOptions } from './internal/RunScope.ts';
import type { ParsedOperation } from './parseOperation.ts';
import { systemClock } from './formatAceTimestamp.ts';
import { skippedOp } from './runOperations.ts';
import type { DraftOperationResult } from './SkillbookDraft.ts';
import type { ApplyOptions, Clock } from './types.ts';

/** Who takes what a one-op run changed (a draft): read at once, its counts copied, not kept. */
export interface ChangesTaker {
  take(changes: Changes): void;
}

/**
 * Runs `op` against `base` (writing into the draft's `journal` in place when given, as
 * `runOperations` does); what it changed goes to `taker` before the op is reported. A refused
 * op changes nothing.
 */
export function runOperation(
  base: BookReader, op: ParsedOperation, revision: number, apply: ApplyOptions, journal: Journal | null, taker: ChangesTaker,
): DraftOperationResult {
  const options = optionsFor(revision, apply);
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
    taker.take(scope.changes(handed));
    return { ok: true, applied: outcome.applied, skipped: null };
  } catch (e) {
    scope.undo();
    throw e;
  } finally {
    scope.release();
    spare = scope;
    letGo();
  }
}

/*
 * What one-op runs reuse, runs never nesting: the scope, its options and the changes it hands
 * over, each let go of between runs (they keep no book, clock or allocator alive). Made per op,
 * with the results around them, they were ~400 of the ~1,000 B applying an add_skill's ADD
 * allocated; a scope per draft kept 30 B per write alive instead.
 */
let spare: RunScope | null = null;
const reused: { revision: number; readonly time: { clock: Clock }; allocate: RunOptions['allocate'] } = { revision: 0, time: { clock: systemClock }, allocate: 'own' };
const handed: OpenChanges = { revision: 0, nextId: 0, active: { context: 0, harness: 0 }, entries: new Map(), added: [], addedSections: [] };

/** `batchOptions(revision, apply)` in the object the runs reuse. */
function optionsFor(revision: number, apply: ApplyOptions): RunOptions {
  reused.revision = revision;
  reused.time.clock = apply.clock ?? systemClock;
  reused.allocate = apply.allocateId ?? 'own';
  return reused;
}

function letGo(): void {
  reused.time.clock = systemClock;
  reused.allocate = 'own';
  handed.entries = NO_ENTRIES;
  handed.added = NO_IDS;
  handed.addedSections = NO_IDS;
}

const NO_IDS: string[] = [];
