import type { StoreFs } from '../../StoreFs.ts';
import { LockHolderSchema } from '../../StoreNotice.ts';
import type { LockHolder } from '../../StoreNotice.ts';
import { parseJsonBytes } from './parseJsonBytes.ts';

/** The holder a lock file names, or `null` when there is none or it does not parse (read without taking it). */
export async function readLock(fs: StoreFs, path: string): Promise<LockHolder | null> {
  const bytes = await fs.readFile(path);
  return bytes ? parseJsonBytes(bytes, LockHolderSchema) : null;
}
