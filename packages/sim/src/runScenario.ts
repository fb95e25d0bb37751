import { Skillbook } from '@cohort/skillbook';
import { SimFs } from '@cohort/store';
import type { PersistedCommit, StoreNotice } from '@cohort/store';
import { readAllHistory } from './external/readAllHistory.ts';
import { SimAceWriter } from './external/SimAceWriter.ts';
import type { ExternalSaveRecord } from './external/SimAceWriter.ts';
import { EpochRecord } from './EpochRecord.ts';
import { runEpoch } from './runEpoch.ts';
import type { Scenario } from './Scenario.ts';
import type { ResolvedSimOptions } from './SimOptions.ts';
import { openEpochStore, SIM_DOCUMENT } from './stores/openEpochStore.ts';
import type { AppendRecord } from './stores/RecordingStore.ts';
import type { Timeline } from './Timeline.ts';
import { runWriters } from './runWriters.ts';
import { runDurable } from './durable/runDurable.ts';
import type { DurableObservation } from './durable/runDurable.ts';
import type { DurablePlan } from './durable/DurablePlan.ts';
import { conflictPolicy } from './runEpoch.ts';
import type { WritersObservation } from './runWriters.ts';

/** A recovery copy found beside the document, with what its sidecar says. */
export interface CopyInfo {
  readonly name: string;
  readonly depth: number | null;
  readonly fixedPoint: boolean;
  readonly writerId: string | null;
}

/** A reopening of the file store after an epoch ended (crashed or closed). */
export interface ReopenRecord {
  readonly afterEpoch: number;
  readonly crashed: boolean;
  /** The book the closed epoch started from. */
  readonly initial: Skillbook;
  /** What that epoch's runtime handed the store, and how each append ended. */
  readonly appends: readonly AppendRecord[];
  /** The book the runtime of that epoch ended with (what it told its callers was durable). */
  readonly runtimeBook: Skillbook | null;
  /** The reopened book, or null when the store did not open. */
  readonly reopened: Skillbook | null;
  readonly message: string | null;
  readonly copies: readonly CopyInfo[];
  /** With another program writing the document: the reopened store's whole history (`null` or absent otherwise). */
  readonly history?: readonly PersistedCommit[] | null;
}

/** What the other program did, and the history the store ended with (runs with one only). */
export interface ExternalObservations {
  readonly saves: readonly ExternalSaveRecord[];
  /** The final reopen's history, `null` when it could not be read. */
  readonly history: readonly PersistedCommit[] | null;
  /** Every notice the store raised (each occurrence once). */
  readonly merges: readonly StoreNotice[];
}

/** Everything a run observed. */
export interface RunObservations {
  /** Each epoch's runtime, then each of the many writers' (when the scenario has them). */
  readonly epochs: readonly EpochRecord[];
  readonly reopens: readonly ReopenRecord[];
  /** The other program's saves, in runs with one (`null` or absent otherwise). */
  readonly external?: ExternalObservations | null;
  /** The many writers on the store after the epochs (`null`: the scenario has none, or the store did not open). */
  readonly writers: WritersObservation | null;
  /** The durable tree, run without and with its crash (`null` or absent: the scenario has none). */
  readonly durable?: DurableObservation | null;
}

/**
 * Executes a scenario epoch by epoch on one simulated clock (and, for a file store, one
 * simulated disk): each epoch opens the store as a new process would (reopening what the last
 * crash left), runs its sessions, and crashes or closes; a file store is reopened once more
 * at the end. Resolves with the observations; nothing here throws for a fault of the runtime.
 *
 * @example
 * const observed = await runScenario(scenario, options, new Timeline(new SimulatedClock()));
 */
export async function runScenario(scenario: Scenario, options: ResolvedSimOptions, timeline: Timeline): Promise<RunObservations> {
  const clock = timeline.clock;
  const sim = scenario.store.kind === 'file' ? new SimFs({ seed: options.seed }) : null;
  const initial = seedBook(scenario.seedSkills, clock);
  const seedIds = [...initial.skills()].map((s) => s.id);
  const epochs: EpochRecord[] = [];
  const reopens: ReopenRecord[] = [];
  let previous: EpochRecord | null = null;
  let opens = true;
  const writer =
    scenario.external && sim ? new SimAceWriter(scenario.external, sim, clock, SIM_DOCUMENT, (event) => timeline.push(event)) : null;
  let history: readonly PersistedCommit[] | null = null;
  const notices = new Map<string, StoreNotice>();
  const keep = (list: readonly StoreNotice[]): void => {
    for (const n of list) notices.set(n.id, n);
  };
  for (let i = 0; i <= scenario.epochs.length; i++) {
    const plan = scenario.epochs[i];
    if (!plan && !sim) break;
    timeline.epoch = plan ? i + 1 : i;
    // while no Cohort process runs, the other program may save too
    writer?.beforeOpen(i + 1);
    const onFault = (fault: string): number => timeline.push({ type: 'sim.fault', fault });
    const opening = openEpochStore({
      plan: scenario.store,
      sim,
      clock,
      initial,
      epoch: i + 1,
      withFault: i === 0 && plan !== undefined,
      ackBeforeSync: options.mutation === 'ack-before-sync' && plan !== undefined,
      staleBase: options.mutation === 'stale-base',
      onFault,
    });
    const opened = await clock
      .settle(opening)
      .catch((thrown: unknown) => ({ ok: false as const, message: `opening hung: ${String(thrown)}` }));
    opens = opened.ok;
    // an epoch's runtime replays them on its events$; a last opening without one shows them here
    if (opened.ok && !plan) for (const notice of opened.store.openNotices) timeline.push(notice);
    if (opened.ok && writer) keep(opened.store.openNotices);
    history = writer && opened.ok ? await clock.settle(readAllHistory(opened.store.recording)).catch(() => null) : null;
    if (previous) {
      const reopened = opened.ok ? opened.store.book : null;
      reopens.push(reopenRecord(previous, reopened, opened.ok ? null : opened.message, sim, history));
      timeline.push({
        type: 'sim.reopen',
        ok: opened.ok,
        revision: reopened?.revision ?? -1,
        skills: reopened?.size ?? 0,
        ...(opened.ok ? {} : { message: opened.message }),
      });
    }
    if (!opened.ok || !plan) {
      if (opened.ok) await clock.settle(opened.store.recording.close()).catch(() => undefined);
      break;
    }
    const record = new EpochRecord(i + 1, opened.store.book, (event) => timeline.push(event));
    record.note({
      type: 'sim.epoch',
      epoch: i + 1,
      store: opened.store.recording.kind,
      revision: opened.store.book.revision,
      skills: opened.store.book.size,
    });
    await runEpoch(plan, { scenario, options, clock, sim, store: opened.store, record, seedIds, external: writer });
    if (writer) keep(record.events.flatMap(({ event }) => (event.type.startsWith('store.') ? [event as StoreNotice] : [])));
    epochs.push(record);
    previous = record;
  }
  const writers = scenario.writers && opens ? await manyWriters(scenario, options, timeline, { sim, initial, seedIds }, epochs) : null;
  const durable = scenario.durable ? await durableTree(scenario.durable, scenario, options, timeline, { initial, seedIds }) : null;
  return { epochs, reopens, external: writer ? { saves: writer.saves, history, merges: [...notices.values()] } : null, writers, durable };
}

/** Runs the scenario's many writers after its epochs; their records join `epochs`. */
async function manyWriters(
  scenario: Scenario,
  options: ResolvedSimOptions,
  timeline: Timeline,
  on: { sim: SimFs | null; initial: Skillbook; seedIds: readonly string[] },
  epochs: EpochRecord[],
): Promise<WritersObservation | null> {
  if (!scenario.writers) return null;
  timeline.epoch = scenario.epochs.length + 1;
  const ran = await runWriters(scenario.writers, {
    scenario,
    options,
    clock: timeline.clock,
    ...on,
    epoch: timeline.epoch,
    push: (e) => timeline.push(e),
  });
  if (!ran) return null;
  const first = epochs.length;
  epochs.push(...ran.records);
  return { first, ...ran.observation };
}

/** Runs the scenario's durable tree after everything else, on a memory store of its own from the initial book. */
function durableTree(
  plan: DurablePlan,
  scenario: Scenario,
  options: ResolvedSimOptions,
  timeline: Timeline,
  on: { initial: Skillbook; seedIds: readonly string[] },
): Promise<DurableObservation> {
  timeline.epoch += 1;
  const mutation =
    options.mutation === 'durable-rerun-recorded'
      ? 'rerun-recorded-children'
      : options.mutation === 'durable-forget-merge-order'
        ? 'forget-merge-order'
        : null;
  return runDurable(plan, {
    clock: timeline.clock,
    ...on,
    conflicts: conflictPolicy(scenario.policy),
    epoch: timeline.epoch,
    mutation,
    push: (e) => timeline.push(e),
  });
}

function reopenRecord(
  previous: EpochRecord,
  reopened: Skillbook | null,
  message: string | null,
  sim: SimFs | null,
  history: readonly PersistedCommit[] | null,
): ReopenRecord {
  return {
    afterEpoch: previous.epoch,
    crashed: previous.crashed,
    initial: previous.initial,
    appends: previous.appends,
    runtimeBook: previous.final?.book ?? null,
    reopened,
    message,
    copies: sim ? recoveryCopies(sim) : [],
    history,
  };
}

/** The recovery copies beside the document, read from the disk as any process would. */
export function recoveryCopies(sim: SimFs): CopyInfo[] {
  const dir = SIM_DOCUMENT.slice(0, SIM_DOCUMENT.lastIndexOf('/'));
  const names = sim.list(dir).filter((n) => n.includes('.recovery-') && n.endsWith('.json') && !n.endsWith('.meta.json'));
  return names.map((name) => {
    const text = sim.readText(`${dir}/${name.replace(/\.json$/, '.meta.json')}`);
    let meta: Record<string, unknown> = {};
    try {
      meta = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    } catch {
      meta = {};
    }
    return {
      name,
      depth: typeof meta['depth'] === 'number' ? meta['depth'] : null,
      fixedPoint: meta['fixedPoint'] === true,
      writerId: typeof meta['writerId'] === 'string' ? meta['writerId'] : null,
    };
  });
}

/** The initial book: `n` seed skills, stamped by the simulated clock. */
function seedBook(n: number, clock: { now(): number }): Skillbook {
  const operations = Array.from({ length: n }, (_, i) => ({
    type: 'ADD',
    section: i % 3 === 2 ? 'harness' : 'context',
    issue: `seed skill ${i + 1}`,
    insight: `seed insight ${i + 1}`,
    keywords: ['seed'],
  }));
  const result = Skillbook.empty().applyBatch({ operations }, { clock });
  if (!result.ok) throw new Error(`the seed book does not build: ${result.error.message}`);
  return result.book;
}
