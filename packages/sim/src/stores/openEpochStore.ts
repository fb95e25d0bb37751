import type { Clock } from '@cohort/runtime';
import type { Skillbook } from '@cohort/skillbook';
import { FileStore, MemoryStore, describeOpenError } from '@cohort/store';
import type { SimFs, SimMount, Store, StoreNotice } from '@cohort/store';
import { openMutantFileStore } from '@cohort/store/mutants';
import type { StorePlan } from '../Scenario.ts';
import { AckBeforeSyncStore } from './AckBeforeSyncStore.ts';
import { faultyFs } from './FaultyFs.ts';
import { FaultyStore } from './FaultyStore.ts';
import { RecordingStore } from './RecordingStore.ts';

/** The document every simulated file store keeps. */
export const SIM_DOCUMENT = '/db/skillbook.json';

/** A store opened for one epoch: what the runtime gets (recording), and what is under it. */
export interface EpochStore {
  readonly recording: RecordingStore;
  readonly book: Skillbook;
  readonly mount: SimMount | null;
  readonly file: FileStore | null;
  readonly openNotices: readonly StoreNotice[];
}

/** How to open an epoch's store. */
export interface OpenRequest {
  readonly plan: StorePlan;
  readonly sim: SimFs | null;
  readonly clock: Clock;
  readonly initial: Skillbook;
  readonly epoch: number;
  /** Inject the plan's store fault (the first epoch only). */
  readonly withFault: boolean;
  readonly ackBeforeSync: boolean;
  /** Open the broken variant that merges other programs' documents against a stale base (`@cohort/store/mutants`). */
  readonly staleBase?: boolean;
  readonly onFault: (description: string) => void;
}

/**
 * Opens the store of one epoch: a memory store (maybe failing one append), or a file store
 * on a fresh mount of the simulated disk (a new process: it reopens whatever the last crash
 * left, maybe failing one write or fsync), wrapped so every append is recorded. Resolves
 * with why it did not open, as a value.
 *
 * @example
 * const opened = await clock.settle(openEpochStore({ plan, sim, clock, initial, epoch: 1, withFault: true, ackBeforeSync: false, onFault }));
 */
export async function openEpochStore(request: OpenRequest): Promise<{ ok: true; store: EpochStore } | { ok: false; message: string }> {
  const { plan, clock } = request;
  if (plan.kind === 'memory' || !request.sim) {
    const memory = new MemoryStore(request.initial, { clock });
    const inner: Store =
      plan.kind === 'memory' && plan.fault && request.withFault ? new FaultyStore(memory, plan.fault, request.onFault) : memory;
    const recording = new RecordingStore(inner, () => true);
    return { ok: true, store: { recording, book: (await memory.load()).book, mount: null, file: null, openNotices: [] } };
  }
  const mount = request.sim.mount();
  const fs = plan.fault && request.withFault ? faultyFs(mount, plan.fault, request.onFault) : mount;
  const fileOptions = {
    fs,
    clock,
    process: mount.process,
    writerId: `w${request.epoch}`,
    // the count alone decides, so that small books see checkpoints (and crashes inside them) often
    checkpointEvery: plan.checkpointEvery,
    checkpointJournalRatio: 0,
    idleCheckpointMs: plan.idleCheckpointMs,
    initialBook: request.initial,
    lockWaitMs: 1_000,
  };
  const opened = request.staleBase
    ? await openMutantFileStore('stale-base', SIM_DOCUMENT, fileOptions)
    : await FileStore.open(SIM_DOCUMENT, fileOptions);
  if (!opened.ok) return { ok: false, message: describeOpenError(opened.error) };
  const file = opened.store;
  const inner: Store = request.ackBeforeSync ? new AckBeforeSyncStore(file) : file;
  const recording = new RecordingStore(inner, () => mount.alive);
  return { ok: true, store: { recording, book: file.book, mount, file, openNotices: opened.notices } };
}
