import { dirname } from 'node:path';
import type { StoreFs } from '../../StoreFs.ts';
import { fsErrorCode } from '../../StoreFs.ts';
import { tempPath } from './StorePaths.ts';

/**
 * Writes `data` to a new file at `path` (fsynced, unless `sync: false` for a file a crash may
 * lose): an existing file there is unlinked first, never written in place, as after a crash a
 * temporary name may still share its file with the name it was renamed or linked to. A write
 * that fails removes what it wrote.
 */
export async function writeFresh(fs: StoreFs, path: string, data: Uint8Array, options: { readonly sync?: boolean } = {}): Promise<void> {
  await fs.unlink(path).catch(() => undefined);
  try {
    await fs.writeFile(path, data, { exclusive: true, sync: options.sync ?? true });
  } catch (error) {
    // a write that failed part-way (a full disk) leaves nothing behind to fill it; a file that
    // exists is another writer's (exclusive create), not ours to remove
    if (fsErrorCode(error) !== 'EEXIST') await fs.unlink(path).catch(() => undefined);
    throw error;
  }
}

/**
 * Replaces `path` with `data` atomically and durably: write a temporary file, fsync it,
 * rename it over `path`, fsync the directory. A crash leaves either the old or the new file,
 * never a mix (at worst a stray temporary file, which the next write replaces).
 */
export async function atomicWrite(fs: StoreFs, path: string, data: Uint8Array): Promise<void> {
  const tmp = tempPath(path);
  await writeFresh(fs, tmp, data);
  try {
    await fs.rename(tmp, path);
  } catch (error) {
    await fs.unlink(tmp).catch(() => undefined);
    throw error;
  }
  await fs.syncDir(dirname(path));
}
