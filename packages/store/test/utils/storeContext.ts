import type { FileStoreOptions, SimFs } from '@cohort/store';
import { resolveFileStoreOptions } from '../../src/FileStoreOptions.ts';
import type { DiskView } from '../../src/internal/disk/DiskView.ts';
import { openFileStore } from '../../src/internal/worker/openFileStore.ts';
import type { StoreContext } from '../../src/internal/worker/StoreContext.ts';
import { DOC } from './simStore.ts';

/** The internals of a file store opened on a fresh mount of `sim`, with the writer lock held (as the store's worker holds it). */
export async function openContext(sim: SimFs, options: FileStoreOptions = {}): Promise<{ ctx: StoreContext; view: DiskView }> {
  const mount = sim.mount();
  const resolved = resolveFileStoreOptions({ fs: mount, process: mount.process, idleCheckpointMs: 0, writerId: 'w-test', ...options });
  const opened = await openFileStore(resolved, DOC);
  if (!opened.ok) throw new Error(opened.error.message);
  const locked = await opened.ctx.lock.acquire(0);
  if (!locked.ok) throw new Error(locked.message);
  return { ctx: opened.ctx, view: opened.view };
}
