import { fsError } from '@cohort/store';
import type { StoreAppendHandle, StoreFs } from '@cohort/store';

/** Which file operation fails with `EIO`. */
export interface FsFault {
  /** `append`: a journal write error; `sync`: a failed fsync; `writeFile`: a failed document/ledger write. */
  readonly op: 'append' | 'sync' | 'writeFile';
  /** 1-based, counted over this file system's operations of that kind. */
  readonly nth: number;
}

/**
 * A {@link StoreFs} wrapper that fails one write or fsync with `EIO`, as a full or failing
 * disk would (nothing of the failed call reaches the disk). The file store must refuse what
 * it could not make durable, report it, and keep everything it acknowledged.
 *
 * @example
 * const fs = faultyFs(sim.mount(), { op: 'sync', nth: 2 }, (f) => log.push(f));
 */
export function faultyFs(inner: StoreFs, fault: FsFault, onFault: (description: string) => void): StoreFs {
  const counts = { append: 0, sync: 0, writeFile: 0 };
  const trip = (op: FsFault['op'], path: string): void => {
    counts[op] += 1;
    if (op !== fault.op || counts[op] !== fault.nth) return;
    onFault(`${op} #${counts[op]} of ${path} fails with EIO`);
    throw fsError('EIO', `simulated ${op === 'sync' ? 'fsync' : 'write'} failure: ${path}`);
  };
  const wrapHandle = (handle: StoreAppendHandle, path: string): StoreAppendHandle => ({
    append: async (data) => {
      trip('append', path);
      return handle.append(data);
    },
    sync: async () => {
      trip('sync', path);
      return handle.sync();
    },
    close: () => handle.close(),
  });
  return {
    readFile: (path) => inner.readFile(path),
    readFrom: (path, offset) => inner.readFrom(path, offset),
    readChunks: (path, onChunk) => inner.readChunks(path, onChunk),
    writeFile: async (path, data, options) => {
      trip('writeFile', path);
      return inner.writeFile(path, data, options);
    },
    openAppend: async (path, options) => wrapHandle(await inner.openAppend(path, options), path),
    truncate: (path, size) => inner.truncate(path, size),
    rename: (from, to) => inner.rename(from, to),
    link: (existing, path) => inner.link(existing, path),
    unlink: (path) => inner.unlink(path),
    stat: (path) => inner.stat(path),
    realpath: (path) => inner.realpath(path),
    readdir: (dir) => inner.readdir(dir),
    syncDir: (dir) => inner.syncDir(dir),
    mkdir: (dir, options) => inner.mkdir(dir, options),
  };
}
