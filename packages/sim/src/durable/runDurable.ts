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
import { freeMerges } from './freeMerges.ts';
import type { FreeMerge, Rows } from './freeMerges.ts';
import { DURABLE_RUN_ID, SimProcess } from './SimProcess.ts';
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
  /** The merges the records at the crash left free (see `freeMerges`). */
  readonly free: readonly FreeMerge[];
  /**
   * With free merges: the tree run without the crash, each merge made where the crashed run made
   * it (null: there were none). A child recorded but not placed at the crash may merge, resumed,
   * before parent writes made after the parent's last record — the result of a run without the
   * crash in which that child was faster, which `reference` (the children at their own pace) is
   * not. This run is that one: the children run as in `reference`, each merge waits for its place,
   * and a parent whose merge is due waits for the child (as if it had come sooner).
   */
  readonly faster: DurableRun | null;
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
  const { run: reference } = await runTwice(plan, null, { ...ctx, mutation: null });
  const { run: crashed, rows, atCrash } = await runTwice(plan, plan.crash, ctx);
  const free = atCrash ? freeMerges(atCrash, rows) : [];
  const faster = free.length > 0 ? (await runTwice(plan, null, { ...ctx, mutation: null }, placesIn(rows))).run : null;
  return { initial: ctx.initial, reference, crashed, free, faster };
}

/** Where each merge of a run fell (its `order:` and `after:` records), to run the tree again with its merges there. */
function placesIn(rows: Rows): Map<string, Map<string, unknown>> {
  const places = (unit: ReadonlyMap<string, unknown>) => [...unit].filter(([key]) => key.startsWith('order:') || key.startsWith('after:'));
  return new Map([...rows].map(([unit, kept]) => [unit, new Map(places(kept))]));
}

async function runTwice(
  plan: DurablePlan,
  crash: DurableCrash | null,
  ctx: DurableRunContext,
  places: Map<string, Map<string, unknown>> = new Map(),
): Promise<{ run: DurableRun; rows: Rows; atCrash: Rows | null }> {
  const { clock } = ctx;
  const store = new MemoryStore(ctx.initial, { clock });
  const detail = places.size > 0 ? FASTER_DETAIL : DURABLE_DETAIL;
  const world: DurableWorld = { rows: places, store, starts: [], appended: 0 };
  const hangs: string[] = [];
  const told: Map<string, ToldId[]>[] = [];
  let outcome: DurableRun['outcome'] = null;
  let crashed: string | null = null;
  let recordedBefore: string[] = [];
  let atCrash: Rows | null = null;
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
    ctx.push({ type: 'sim.durable', what: index === 1 ? (crash ? 'run' : 'reference run') : 'resume', detail });
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
      atCrash = proc.rowsAtCrash;
    }
  }
  const history = await clock.settle(readAllHistory(store), MAX_STEPS).catch(() => null);
  const run: DurableRun = {
    crashed,
    recordedBefore,
    starts: world.starts,
    appended: world.appended,
    outcome,
    book: store.current().book,
    history,
    told: landing(lastExecutions(told, recordedBefore), world.rows, outcome?.status === 'committed'),
    hangs,
  };
  return { run, rows: world.rows, atCrash };
}

/**
 * The told ids of sessions whose unit's work can land: none when the root did not commit, and
 * not those of a unit below one recorded as failed, or not recorded (a child still running when
 * its parent gave up on it). Their ids never land, and whether such a session got as far as
 * being told one is a matter of timing — in the run without the crash it goes on until it ends
 * (or until the run is looked at); cut off by the crash, it never runs again.
 */
function landing(told: ReadonlyMap<string, readonly ToldId[]>, rows: Rows, rootCommitted: boolean): Map<string, readonly ToldId[]> {
  if (!rootCommitted) return new Map();
  const lost = new Set([...rows.keys()].filter((unit) => !lands(unit, rows)).map(unitRuntimeId));
  return new Map([...told].filter(([id]) => !lost.has(id.split('.')[0] ?? '')));
}

function lands(unit: string, rows: Rows): boolean {
  if (unit === DURABLE_RUN_ID || !unit.includes('/')) return true;
  const result = rows.get(unit)?.get('result') as { readonly status?: string } | undefined;
  return result?.status === 'committed' && lands(unit.slice(0, unit.lastIndexOf('/')), rows);
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
const FASTER_DETAIL = 'durable tree, each merge where the resumed run made it';

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
