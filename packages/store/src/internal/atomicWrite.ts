import { dirname } from 'node:path';
import type { StoreFs } from '../StoreFs.ts';
import { tempPath } from './StorePaths.ts';

/**
 * Replaces `path` with `data` atomically and durably: write a temporary file, fsync it,
 * rename it over `path`, fsync the directory. A crash leaves either the old or the new file,
 * never a mix (at worst a stray temporary file, which the next write replaces).
 */
export async function atomicWrite(fs: StoreFs, path: string, data: Uint8Array): Promise<void> {
  const tmp = tempPath(path);
  await fs.writeFile(tmp, data, { sync: true });
  await fs.rename(tmp, path);
  await fs.syncDir(dirname(path));
}
