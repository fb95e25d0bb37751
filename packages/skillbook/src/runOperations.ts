/**
 * Runs parsed operations with ACE's semantics (the rules in `internal/operationRules.ts`) —
 * but without touching the book: every change lands in a small overlay
 * (`internal/RunScope.ts`), and the caller commits the overlay in one step only if every op
 * succeeded. That makes a batch all-or-nothing and each UPDATE atomic, and costs O(k) for k
 * operations. A replayed op this package made reuses what it did the first time
 * (`internal/replayCache.ts`).
 */
import { systemClock } from './formatAceTimestamp.ts';
import type { BookReader, Changes, Journal } from './internal/BookState.ts';
import type { Outcome } from './internal/operationRules.ts';
import { RunScope } from './internal/RunScope.ts';
import type { RunOptions } from './internal/RunScope.ts';
import { allProduced, parseAppliedOps, producedOperation } from './parseAppliedOps.ts';
import type { ParsedOperation } from './parseOperation.ts';
import type { AppliedOp, ApplyOptions, SkillbookErrorInfo, SkippedOp } from './types.ts';

export type { RunOptions } from './internal/RunScope.ts';

/** How `applyBatch` runs a batch that would make revision `revision`. */
export function batchOptions(revision: number, options: ApplyOptions): RunOptions {
  return { revision, time: { clock: options.clock ?? systemClock }, allocate: options.allocateId ?? 'own' };
}

/** The outcome: what to commit (`null` when nothing applied), or why the whole list is refused. */
export type RunResult =
  | { readonly ok: true; readonly changes: Changes | null; readonly applied: AppliedOp[]; readonly skipped: SkippedOp[] }
  | { readonly ok: false; readonly error: SkillbookErrorInfo };

/**
 * Runs `ops` against `base` in order; stops at the first failing op. `journal`, when given, is
 * the journal a `SkillbookDraft` over `base` holds: the run then writes into it in place, and
 * undoes its writes if it fails, instead of writing an overlay the draft copies in afterwards —
 * a map, lists and a copy per batch, and a batch is one tool call or one merge (bench rows 2
 * and 3).
 */
export function runOperations(base: BookReader, ops: readonly ParsedOperation[], options: RunOptions, journal: Journal | null = null): RunResult {
  return guarded(new RunScope(base, options, journal), (scope) => {
    const run = new Collected(ops.length);
    for (const op of ops) {
      const refused = run.settle(scope, op, scope.run(op));
      if (refused) return refused;
    }
    return run.result(scope);
  });
}

/**
 * Replays applied ops (`Skillbook.replay`) that would make revision `revision`: exact ids,
 * each op's own `at`. Ops from elsewhere are checked and parsed first (`parseAppliedOps`);
 * a list of ops this package made needs neither, and each op that finds what it found the
 * first time is applied from the replay cache without being parsed at all — a merge replays
 * every op of every commit at each level up to the store (bench row 3, W(10,000 × 10)).
 */
export function replayOperations(base: BookReader, ops: readonly AppliedOp[], revision: number, journal: Journal | null = null): RunResult {
  if (!allProduced(ops)) {
    const parsed = parseAppliedOps(ops);
    if (!parsed.ok) return parsed;
    return runOperations(base, parsed.ops, { revision, time: { at: parsed.at, inputs: ops }, allocate: null }, journal);
  }
  return guarded(new RunScope(base, { revision, time: { at: null, inputs: ops }, allocate: null }, journal), (scope) => {
    const run = new Collected(ops.length);
    for (let i = 0; i < ops.length; i++) {
      const input = ops[i] as AppliedOp;
      if (scope.reuse(input)) run.keep(input);
      else {
        // what the rules decide: the same as for this op parsed (see `producedOperation`)
        const op = producedOperation(input, i);
        const refused = run.settle(scope, op, scope.run(op));
        if (refused) return refused;
      }
    }
    return run.result(scope);
  });
}

/** How a skipped op is reported. */
export function skippedOp(op: ParsedOperation, outcome: Extract<Outcome, { readonly skipped: string }>): SkippedOp {
  return Object.freeze({ opIndex: op.opIndex, type: op.type, skillId: op.skillId, code: outcome.code, reason: outcome.skipped });
}

/** Runs `body` on `scope`; a defect thrown midway leaves nothing written. */
function guarded(scope: RunScope, body: (scope: RunScope) => RunResult): RunResult {
  try {
    return body(scope);
  } catch (e) {
    scope.undo();
    throw e;
  }
}

/** What a run collected: its applied and skipped ops. */
class Collected {
  // sized to the ops, not grown by push: the first push into `[]` reserves 17 slots, and most
  // batches are one tool call's single op (bench row 2)
  private readonly applied: AppliedOp[];
  private count = 0;
  private readonly skipped: SkippedOp[] = [];

  constructor(ops: number) {
    this.applied = new Array<AppliedOp>(ops);
  }

  keep(op: AppliedOp): void {
    this.applied[this.count++] = op;
  }

  /** Takes one op's outcome; returns the refusal when it refuses the run (then undone), else `null`. */
  settle(scope: RunScope, op: ParsedOperation, outcome: Outcome): RunResult | null {
    if ('error' in outcome) {
      scope.undo();
      return { ok: false, error: outcome.error };
    }
    if ('skipped' in outcome) this.skipped.push(skippedOp(op, outcome));
    else this.keep(outcome.applied);
    return null;
  }

  result(scope: RunScope): RunResult {
    const applied = this.applied;
    applied.length = this.count;
    return { ok: true, changes: this.count === 0 ? null : scope.changes(), applied, skipped: this.skipped };
  }
}
