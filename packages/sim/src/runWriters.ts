import type { Runtime, SimulatedClock } from '@cohort/runtime';
import type { Skillbook } from '@cohort/skillbook';
import { FileStore, MemoryStore, describeOpenError } from '@cohort/store';
import type { PersistedCommit, SimFs, Store } from '@cohort/store';
import { EpochRecord } from './EpochRecord.ts';
import { settle, simRuntime, startRoot } from './runEpoch.ts';
import type { Scenario, WritersPlan } from './Scenario.ts';
import type { ResolvedSimOptions } from './SimOptions.ts';
import type { TimelineEvent } from './SimReport.ts';
import { SIM_DOCUMENT } from './stores/openEpochStore.ts';
import { readAllHistory } from './external/readAllHistory.ts';
import { RecordingStore } from './stores/RecordingStore.ts';

/** What the many-writers part of a run observed, besides each writer's record. */
export interface WritersObservation {
  /** Where the writers' records start in `RunObservations.epochs`. */
  readonly first: number;
  readonly count: number;
  /** The book every writer started from. */
  readonly initial: Skillbook;
  /** The store's book once every writer closed (a file store: reopened), or null when it did not open. */
  readonly book: Skillbook | null;
  /** The store's persisted history then. */
  readonly history: readonly PersistedCommit[] | null;
}

/** What the many-writers part runs with. */
export interface WritersContext {
  readonly scenario: Scenario;
  readonly options: ResolvedSimOptions;
  readonly clock: SimulatedClock;
  /** The simulated disk of a file store (null: a memory store on `initial`). */
  readonly sim: SimFs | null;
  readonly initial: Skillbook;
  readonly epoch: number;
  readonly seedIds: readonly string[];
  readonly push: (event: TimelineEvent) => number;
}

/** Fan-outs must be able to happen: the phase's runtimes allow this many live children, and ops in a commit, at least. */
const MIN_LIMITS = { maxChildren: 64, maxOpsPerCommit: 1_000 } as const;

/**
 * Runs the many-writers part of a scenario: one store (a memory store, or a file store opened by
 * one process — one mount of the simulated disk — per runtime), a runtime per writer on it, every
 * root session of every writer started at its time, virtual time driven until all settled; then
 * every runtime closes, and the store is read again (a file store: by a new process) for its
 * book and its history. Resolves with each writer's record and what the store held; nothing
 * here throws for a fault of the runtime.
 *
 * @example
 * const { records, observation } = await runWriters(plan, ctx);
 */
export async function runWriters(
  plan: WritersPlan,
  ctx: WritersContext,
): Promise<{ records: EpochRecord[]; observation: Omit<WritersObservation, 'first'> } | null> {
  const { clock } = ctx;
  const stores = await openStores(plan.runtimes.length, ctx);
  if (!stores) return null;
  const initial = stores.book;
  ctx.push({ type: 'sim.writers', runtimes: plan.runtimes.length, store: stores.kind, revision: initial.revision, skills: initial.size });
  const { maxChildren, maxOpsPerCommit } = ctx.scenario.limits;
  const limits = {
    ...ctx.scenario.limits,
    maxChildren: Math.max(maxChildren, MIN_LIMITS.maxChildren),
    maxOpsPerCommit: Math.max(maxOpsPerCommit, MIN_LIMITS.maxOpsPerCommit),
  };
  const writers = stores.each.map((store, i) => {
    const record = new EpochRecord(ctx.epoch, initial, ctx.push, i + 1);
    const recording = new RecordingStore(store, () => true);
    const rt: Runtime = simRuntime(ctx, { store: recording, runtimeId: `w${i + 1}`, limits });
    rt.events$.subscribe((event) => record.observe(event));
    return { record, recording, rt, roots: plan.runtimes[i]?.roots ?? [] };
  });
  const all = writers.flatMap(({ record, rt, roots }) => roots.map((root) => startRoot(rt, root, { record, clock, seedIds: ctx.seedIds })));
  const first = writers[0]?.record ?? new EpochRecord(ctx.epoch, initial, ctx.push, 1);
  await settle(clock, Promise.all(all), first, 'the sessions of the writers did not all settle');
  const live = writers.map(({ rt }) => rt.liveSessions);
  await settle(clock, Promise.all(writers.map(({ rt }) => rt.close())), first, "the writers' runtimes did not close");
  writers.forEach(({ record, recording, rt }, i) => {
    record.final = { book: rt.book, audit: [...rt.audit], live: live[i] ?? 0 };
    record.appends = recording.appends;
  });
  const after = await clock.settle(stores.reread(), 200_000).catch(() => ({ book: null, history: null }));
  return { records: writers.map((w) => w.record), observation: { count: writers.length, initial, ...after } };
}

interface WriterStores {
  readonly kind: string;
  readonly book: Skillbook;
  readonly each: readonly Store[];
  /** The store's book and history after every writer closed. */
  reread(): Promise<{ book: Skillbook | null; history: readonly PersistedCommit[] | null }>;
}

/** One memory store for all, or one file store per writer, each opened by a process of its own. */
async function openStores(n: number, ctx: WritersContext): Promise<WriterStores | null> {
  const { clock, sim } = ctx;
  const plan = ctx.scenario.store;
  if (!sim || plan.kind !== 'file') {
    const memory = new MemoryStore(ctx.initial, { clock });
    const reread = async () => ({ book: memory.current().book, history: await readAllHistory(memory) });
    return { kind: 'memory', book: memory.current().book, each: Array.from({ length: n }, () => memory), reread };
  }
  const open = async (writerId: string): Promise<FileStore | null> => {
    const mount = sim.mount();
    const opened = await FileStore.open(SIM_DOCUMENT, {
      fs: mount,
      process: mount.process,
      clock,
      writerId,
      lockWaitMs: 5_000,
      checkpointEvery: plan.checkpointEvery,
      checkpointJournalRatio: 0,
      idleCheckpointMs: plan.idleCheckpointMs,
    });
    if (!opened.ok) ctx.push({ type: 'sim.reopen', ok: false, revision: -1, skills: 0, message: describeOpenError(opened.error) });
    return opened.ok ? opened.store : null;
  };
  const each: FileStore[] = [];
  for (let i = 0; i < n; i++) {
    const store = await clock.settle(open(`writer-${i + 1}`), 200_000).catch(() => null);
    if (!store) return null;
    each.push(store);
  }
  const reread = async () => {
    const again = await open('reader');
    if (!again) return { book: null, history: null };
    const history = await readAllHistory(again);
    await again.close();
    return { book: again.book, history };
  };
  return { kind: 'file', book: each[0]?.book ?? ctx.initial, each, reread };
}
