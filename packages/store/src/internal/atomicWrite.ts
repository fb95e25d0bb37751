import { dirname } from 'node:path';
import type { StoreFs } from '../StoreFs.ts';
import { tempPath } from './StorePaths.ts';

/**
 * Writes `data` to a new file at `path` (fsynced, unless `sync: false` for a file a crash may
 * lose): an existing file there is unlinked first, never written in place, as after a crash a
 * temporary name may still share its file with the name it was renamed or linked to.
 */
export async function writeFresh(fs: StoreFs, path: string, data: Uint8Array, options: { readonly sync?: boolean } = {}): Promise<void> {
  await fs.unlink(path).catch(() => undefined);
  await fs.writeFile(path, data, { exclusive: true, sync: options.sync ?? true });
}

/**
 * Replaces `path` with `data` atomically and durably: write a temporary file, fsync it,
 * rename it over `path`, fsync the directory. A crash leaves either the old or the new file,
 * never a mix (at worst a stray temporary file, which the next write replaces).
 */
export async function atomicWrite(fs: StoreFs, path: string, data: Uint8Array): Promise<void> {
  const tmp = tempPath(path);
  await writeFresh(fs, tmp, data);
  await fs.rename(tmp, path);
  await fs.syncDir(dirname(path));
}
