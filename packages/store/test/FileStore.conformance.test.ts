import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileStore, SimFs, describeOpenError } from '@cohort/store';
import type { FileStoreOptions, Store } from '@cohort/store';
import { describeStoreConformance } from '@cohort/store/testing';

async function openOrThrow(path: string, options: FileStoreOptions): Promise<Store> {
  const opened = await FileStore.open(path, options);
  if (!opened.ok) throw new Error(describeOpenError(opened.error));
  return opened.store;
}

describeStoreConformance('FileStore on the simulated file system', async (initial) => {
  const sim = new SimFs({ seed: 11 });
  return {
    durable: true,
    open: () => openOrThrow('/db/skillbook.json', { fs: sim.mount(), initialBook: initial, idleCheckpointMs: 0 }),
  };
});

describeStoreConformance('FileStore on the real file system', async (initial) => {
  const dir = await mkdtemp(join(tmpdir(), 'cohort-store-'));
  return {
    durable: true,
    open: () => openOrThrow(join(dir, 'skillbook.json'), { initialBook: initial, idleCheckpointMs: 0 }),
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
});
