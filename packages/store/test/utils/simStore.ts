import { expect } from 'vitest';
import { FileStore, SimFs, describeOpenError } from '@cohort/store';
import type { FileStoreOptions, StoreNotice } from '@cohort/store';
import { addOp, makeCommit } from '@cohort/store/testing';

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

/**
 * The store goes on: a new merge (an ADD of `issue`) on `store` is acknowledged, and a store
 * opened on `sim` after `store` closed holds exactly the book it acknowledged. Closes both.
 */
export async function expectNextMergeDurable(sim: SimFs, store: FileStore, issue: string, sessionId?: string): Promise<void> {
  const next = await store.append(makeCommit(store.book, [addOp(issue)], sessionId === undefined ? {} : { sessionId }).commit);
  expect(next.ok).toBe(true);
  await store.close();
  const { store: reopened } = await openSim(sim);
  expect(reopened.book.toJSON()).toBe(next.ok ? next.book.toJSON() : '');
  await reopened.close();
}

/** Collects a store's notices into an array. */
export function collect(store: FileStore): StoreNotice[] {
  const seen: StoreNotice[] = [];
  store.notices$.subscribe((n) => seen.push(n));
  return seen;
}

/** A store on a fresh simulated disk, and the notices it raises from then on (`seen`). */
export async function freshSimStore(options: FileStoreOptions = {}): Promise<{ sim: SimFs; store: FileStore; seen: StoreNotice[] }> {
  const sim = new SimFs();
  const { store } = await openSim(sim, options);
  return { sim, store, seen: collect(store) };
}
