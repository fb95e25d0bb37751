import type { ConflictPolicy, SimulatedClock } from '@cohort/runtime';
import { unitRuntimeId } from '@cohort/durable/internal';
import type { Skillbook } from '@cohort/skillbook';
import { MemoryStore } from '@cohort/store';
import type { PersistedCommit } from '@cohort/store';
import { EpochRecord } from '../EpochRecord.ts';
import { readAllHistory } from '../external/readAllHistory.ts';
import { MAX_STEPS } from '../runEpoch.ts';
import type { TimelineEvent } from '../SimReport.ts';
import type { DurableCrash, DurablePlan } from './DurablePlan.ts';
import { SimProcess } from './SimProcess.ts';
import type { DurableWorld, ProcessMutation } from './SimProcess.ts';

/** An id a session was told for a skill it added, and the skill's issue. */
export interface ToldId {
  readonly id: string;
  readonly issue: string;
}

/** One run of a durable tree: a process, and (after a crash, or to run the same id again) a second one resuming it. */
export interface DurableRun {
  /** Where the first process crashed, or null when it ran to the end. */
  readonly crashed: string | null;
  /** The units whose outcome was recorded when the first process ended (crashed, or ran to the end). */
  readonly recordedBefore: readonly string[];
  readonly starts: DurableWorld['starts'];
  /** Root commits the store took. */
  readonly appended: number;
  /** The root's outcome in the last process (null: it did not come). */
  readonly outcome: { readonly status: string; readonly kind: string | null } | null;
  readonly book: Skillbook;
  /** The store's history (null: it could not be read). */
  readonly history: readonly PersistedCommit[] | null;
  /** By session id: what the last execution of each session was told. */
  readonly told: ReadonlyMap<string, readonly ToldId[]>;
  /** Work that never settled, errors that escaped. */
  readonly hangs: readonly string[];
}

/** A durable tree run without its crash, and with it. */
export interface DurableObservation {
  readonly initial: Skillbook;
  readonly reference: DurableRun;
  readonly crashed: DurableRun;
}

/** What the durable runs share. */
export interface DurableRunContext {
  readonly clock: SimulatedClock;
  readonly initial: Skillbook;
  readonly seedIds: readonly string[];
  readonly conflicts: ConflictPolicy;
  readonly epoch: number;
  readonly mutation: ProcessMutation;
  readonly push: (event: TimelineEvent) => number;
}

/**
 * Runs a durable tree twice on its own memory store from the same book: without the crash
 * (the reference), then with it — the first process crashes at the plan's point, and a second
 * one resumes the run from what was recorded (or, when the crash point never came, runs the
 * same id again). Resolves with what each run left; nothing here throws.
 *
 * @example
 * const { reference, crashed } = await runDurable(plan, ctx);
 */
export async function runDurable(plan: DurablePlan, ctx: DurableRunContext): Promise<DurableObservation> {
  const reference = await runTwice(plan, null, { ...ctx, mutation: null });
  const crashed = await runTwice(plan, plan.crash, ctx);
  return { initial: ctx.initial, reference, crashed };
}

async function runTwice(plan: DurablePlan, crash: DurableCrash | null, ctx: DurableRunContext): Promise<DurableRun> {
  const { clock } = ctx;
  const store = new MemoryStore(ctx.initial, { clock });
  const world: DurableWorld = { rows: new Map(), store, starts: [], appended: 0 };
  const hangs: string[] = [];
  const told: Map<string, ToldId[]>[] = [];
  let outcome: DurableRun['outcome'] = null;
  let crashed: string | null = null;
  let recordedBefore: string[] = [];
  for (const index of crash ? [1, 2] : [1]) {
    const record = new EpochRecord(ctx.epoch, ctx.initial, ctx.push);
    const proc = new SimProcess(world, index, {
      plan,
      crash: index === 1 ? crash : null,
      clock,
      record,
      seedIds: ctx.seedIds,
      conflicts: ctx.conflicts,
      mutation: index === 2 ? ctx.mutation : null,
      onCrash: (where) => ctx.push({ type: 'sim.durable', what: 'crash', detail: where }),
    });
    ctx.push({ type: 'sim.durable', what: index === 1 ? (crash ? 'run' : 'reference run') : 'resume', detail: DURABLE_DETAIL });
    const timer = index === 1 && crash?.at === 'time' ? clock.setTimeout(() => proc.crash(`at ${crash.ms} ms`), crash.ms) : null;
    try {
      const o = await clock.settle(proc.run(plan.root.name), MAX_STEPS);
      outcome = o ? { status: o.status, kind: o.status === 'failed' ? o.failure.kind : null } : null;
    } catch (thrown) {
      hangs.push(`process ${index} did not settle: ${thrown instanceof Error ? thrown.message : String(thrown)}`);
    }
    if (timer !== null) clock.clearTimeout(timer);
    hangs.push(...record.escaped, ...record.misreported);
    told.push(toldBy(record));
    if (index === 1) {
      crashed = proc.crashed;
      recordedBefore = proc.crashed !== null ? proc.recordedAtCrash : proc.recordedUnits();
    }
  }
  const history = await clock.settle(readAllHistory(store), MAX_STEPS).catch(() => null);
  return {
    crashed,
    recordedBefore,
    starts: world.starts,
    appended: world.appended,
    outcome,
    book: store.current().book,
    history,
    told: lastExecutions(told, recordedBefore),
    hangs,
  };
}

/**
 * What each session's last execution was told: the last process's, and for a unit recorded
 * before it began (not run again), the first process's; sessions of the first process whose
 * unit ran again, or never ran again, were cut off and told nothing that stands.
 */
function lastExecutions(told: readonly Map<string, ToldId[]>[], recordedBefore: readonly string[]): Map<string, readonly ToldId[]> {
  const [first, last] = told;
  if (!last) return new Map(first);
  const recorded = new Set(recordedBefore.map(unitRuntimeId));
  const out = new Map<string, readonly ToldId[]>(last);
  for (const [id, ids] of first ?? []) if (recorded.has(id.split('.')[0] ?? '')) out.set(id, ids);
  return out;
}

const DURABLE_DETAIL = 'durable tree';

/** The ids each session of a process was told, with the issue it wrote. */
function toldBy(record: EpochRecord): Map<string, ToldId[]> {
  const out = new Map<string, ToldId[]>();
  for (const s of record.sessions.values()) {
    if (s.allocated.length === 0) continue;
    const issues = new Map<string, string>();
    for (const item of s.log) if ('own' in item) for (const op of item.own) if (op.type === 'ADD') issues.set(op.skill_id, op.issue ?? '');
    out.set(
      s.id,
      s.allocated.map((id) => ({ id, issue: issues.get(id) ?? '' })),
    );
  }
  return out;
}
