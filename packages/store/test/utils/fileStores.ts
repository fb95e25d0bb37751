import { expect } from 'vitest';
import { FileStore, describeOpenError } from '@cohort/store';
import type { FileStoreOptions } from '@cohort/store';
import { addOp, makeCommit } from '@cohort/store/testing';

/** Opens a FileStore at `path` that checkpoints only when asked or closed (`idleCheckpointMs: 0`); throws what a refused open said. */
export async function openFileStore(path: string, options: FileStoreOptions = {}): Promise<FileStore> {
  const opened = await FileStore.open(path, { idleCheckpointMs: 0, ...options });
  if (!opened.ok) throw new Error(describeOpenError(opened.error));
  return opened.store;
}

/** Opens a store at `path`, makes one skill (`issue`) durable and closes it: the close checkpoints, so every file of a store is there. */
export async function storeWithOneSkill(path: string, issue: string, options: FileStoreOptions = {}): Promise<void> {
  const store = await openFileStore(path, options);
  const r = await store.append(makeCommit(store.book, [addOp(issue)]).commit);
  expect(r.ok).toBe(true);
  await store.close();
}
