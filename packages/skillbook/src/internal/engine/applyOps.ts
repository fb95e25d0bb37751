/**
 * The engine room's entry: every Skillbook write — `applyBatch`, `applyOperation` and
 * `replay`, on a book or on a draft — is applied here (a draft's one op by `applyOne`). Ops
 * run in order with ACE's semantics (the rules in `operationRules.ts`) without touching the
 * book: every change lands in an overlay (`RunScope.ts`), and the caller commits the overlay
 * in one step only if every op succeeded. That makes a batch all-or-nothing and each UPDATE
 * atomic, and costs O(k) for k operations. A replayed op this package made reuses what it did
 * the first time (`replayCache.ts`).
 */
import { systemClock } from '../../formatAceTimestamp.ts';
import { allProduced, parseAppliedOps, producedOperation } from './parseAppliedOps.ts';
import type { ParsedOperation } from '../../parseOperation.ts';
import type { AppliedOp, ApplyOptions, SkillbookErrorInfo, SkippedOp } from '../../types.ts';
import type { BookReader, Changes, Journal } from '../BookState.ts';
import type { Outcome } from './operationRules.ts';
import { RunScope } from './RunScope.ts';
import type { RunOptions } from './RunScope.ts';

/** What to apply: parsed ops (a batch, or the one op of a tool call) with their options, or applied ops to replay. */
export type Write =
  | { readonly ops: readonly ParsedOperation[]; readonly options: ApplyOptions }
  | { readonly replay: readonly AppliedOp[] };

/** The outcome: what to commit (`null` when nothing applied), or why the whole write is refused. */
export type RunResult =
  | { readonly ok: true; readonly changes: Changes | null; readonly applied: AppliedOp[]; readonly skipped: SkippedOp[] }
  | { readonly ok: false; readonly error: SkillbookErrorInfo };

/**
 * Applies `write` to `base` as its next revision; stops at the first op that refuses. With a
 * `journal` (the one a `SkillbookDraft` over `base` holds) the run writes into it in place and
 * undoes its writes if it fails, instead of building an overlay the draft copies in afterwards
 * (bench rows 2g and 3). A defect thrown midway leaves nothing written, and reaches the caller.
 *
 * @example
 * const run = applyOps(stateReader(state), { ops: parsed.ops, options: {} });
 * if (run.ok && run.changes) state = commitChanges(state, run.changes);
 */
export function applyOps(base: BookReader, write: Write, journal: Journal | null = null): RunResult {
  const plan = planOf(base.revision + 1, write);
  if ('error' in plan) return plan;
  const scope = new RunScope(base, plan.options, journal);
  try {
    return runAll(scope, plan);
  } catch (e) {
    scope.undo();
    throw e;
  }
}

/** The outcome of {@link applyOne}: the op applied or skipped, with what to commit (`null` when it did not apply); or refused. */
export type OneResult =
  | { readonly ok: true; readonly changes: Changes | null; readonly applied: AppliedOp | null; readonly skipped: SkippedOp | null }
  | { readonly ok: false; readonly error: SkillbookErrorInfo };

/**
 * The one-op lane (a tool call's write): applies `op` as {@link applyOps} applies a batch of
 * it — the same scope, rules and results, into `journal` in place when given — and answers the
 * op rather than lists of it.
 */
export function applyOne(base: BookReader, op: ParsedOperation, options: ApplyOptions, journal: Journal | null = null): OneResult {
  const scope = new RunScope(base, runOptions(base.revision + 1, options), journal);
  try {
    const outcome = scope.run(op);
    if ('error' in outcome) {
      scope.undo();
      return { ok: false, error: outcome.error };
    }
    if ('skipped' in outcome) return { ok: true, changes: null, applied: null, skipped: skippedOp(op, outcome) };
    return { ok: true, changes: scope.changes(), applied: outcome.applied, skipped: null };
  } catch (e) {
    scope.undo();
    throw e;
  }
}

/** How parsed ops that would make revision `revision` run: their time from the clock, their new ids from the allocator or the book. */
function runOptions(revision: number, options: ApplyOptions): RunOptions {
  return { revision, time: { clock: options.clock ?? systemClock }, allocate: options.allocateId ?? 'own' };
}

/**
 * How a write runs: each op as parsed, or — a replay of ops this package made — read as it
 * is (`null`: see `producedOperation`), and what each op's time and new ids come from.
 */
interface Plan {
  readonly count: number;
  readonly parsed: readonly ParsedOperation[] | null;
  readonly replayed: readonly AppliedOp[] | null;
  readonly options: RunOptions;
}

/**
 * A replay of ops from elsewhere is checked and parsed first (`parseAppliedOps`); a list of ops
 * this package made needs neither, and each op that finds what it found the first time is
 * applied from the replay cache without being parsed at all.
 */
function planOf(revision: number, write: Write): Plan | { readonly ok: false; readonly error: SkillbookErrorInfo } {
  if ('ops' in write) return { count: write.ops.length, parsed: write.ops, replayed: null, options: runOptions(revision, write.options) };
  const ops = write.replay;
  if (allProduced(ops))
    return { count: ops.length, parsed: null, replayed: ops, options: { revision, time: { at: null, inputs: ops }, allocate: null } };
  const parsed = parseAppliedOps(ops);
  if (!parsed.ok) return parsed;
  return {
    count: ops.length,
    parsed: parsed.ops,
    replayed: ops,
    options: { revision, time: { at: parsed.at, inputs: ops }, allocate: null },
  };
}

/** Runs every op of `plan` in order on `scope`; the first refusal undoes the run. */
function runAll(scope: RunScope, plan: Plan): RunResult {
  const applied: AppliedOp[] = [];
  const skipped: SkippedOp[] = [];
  for (let i = 0; i < plan.count; i++) {
    const input = plan.replayed?.[i];
    if (input !== undefined && scope.reuse(input)) {
      applied.push(input);
      continue;
    }
    // what the rules decide for a produced op is what they decide for it parsed
    const op = plan.parsed?.[i] ?? producedOperation(input as AppliedOp, i);
    const outcome = scope.run(op);
    if ('error' in outcome) {
      scope.undo();
      return { ok: false, error: outcome.error };
    }
    if ('skipped' in outcome) skipped.push(skippedOp(op, outcome));
    else applied.push(outcome.applied);
  }
  return { ok: true, changes: applied.length === 0 ? null : scope.changes(), applied, skipped };
}

/** How a skipped op is reported. */
function skippedOp(op: ParsedOperation, outcome: Extract<Outcome, { readonly skipped: string }>): SkippedOp {
  return Object.freeze({ opIndex: op.opIndex, type: op.type, skillId: op.skillId, code: outcome.code, reason: outcome.skipped });
}
