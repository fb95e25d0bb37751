import type { StoreFs } from '../../StoreFs.ts';

/**
 * `fs` creating every file with `mode` unless a call names its own: the one place the store's
 * file mode is applied, so no write of a side file, a temporary file or a recovery copy can
 * forget it. (Each method is passed on explicitly: a class's methods are not own properties.)
 */
export function withFileMode(fs: StoreFs, mode: number): StoreFs {
  return {
    readFile: (path) => fs.readFile(path),
    readFrom: (path, offset) => fs.readFrom(path, offset),
    readChunks: (path, onChunk) => fs.readChunks(path, onChunk),
    writeFile: (path, data, options = {}) => fs.writeFile(path, data, { ...options, mode: options.mode ?? mode }),
    openAppend: (path, options = {}) => fs.openAppend(path, { mode: options.mode ?? mode }),
    truncate: (path, size) => fs.truncate(path, size),
    rename: (from, to) => fs.rename(from, to),
    link: (existing, path) => fs.link(existing, path),
    unlink: (path) => fs.unlink(path),
    stat: (path) => fs.stat(path),
    realpath: (path) => fs.realpath(path),
    readdir: (dir) => fs.readdir(dir),
    syncDir: (dir) => fs.syncDir(dir),
    mkdir: (dir, options) => fs.mkdir(dir, options),
  };
}

/** The mode of a directory holding files of `fileMode`: each class that may read or write them may also enter it (`0o600` → `0o700`). */
export function directoryMode(fileMode: number): number {
  let mode = fileMode;
  for (const shift of [6, 3, 0]) if ((fileMode >> shift) & 0o6) mode |= 1 << shift;
  return mode;
}
