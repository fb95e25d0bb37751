import { FileStore, type SimFs, describeOpenError } from '@cohort/store';
import type { FileStoreOptions, StoreNotice } from '@cohort/store';

/** The document path every simulated store in these tests uses. */
export const DOC = '/db/skillbook.json';

/** Opens a file store on a fresh mount of `sim`, throwing when it does not open. */
export async function openSim(sim: SimFs, options: FileStoreOptions = {}): Promise<{ store: FileStore; notices: readonly StoreNotice[] }> {
  const mount = sim.mount();
  const opened = await FileStore.open(DOC, { fs: mount, process: mount.process, idleCheckpointMs: 0, writerId: 'w-test', ...options });
  if (!opened.ok) throw new Error(describeOpenError(opened.error));
  return { store: opened.store, notices: opened.notices };
}

/** Opens a file store on a fresh mount of `sim` (as a new process), returning the result as is. */
export function openRaw(sim: SimFs, options: FileStoreOptions = {}): ReturnType<typeof FileStore.open> {
  const mount = sim.mount();
  return FileStore.open(DOC, { fs: mount, process: mount.process, idleCheckpointMs: 0, ...options });
}

/** Collects a store's notices into an array. */
export function collect(store: FileStore): StoreNotice[] {
  const seen: StoreNotice[] = [];
  store.notices$.subscribe((n) => seen.push(n));
  return seen;
}
