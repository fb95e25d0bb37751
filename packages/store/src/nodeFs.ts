import { constants } from 'node:fs';
import { link, lstat, mkdir, open, readdir, realpath, rename, unlink } from 'node:fs/promises';
import type { FileHandle } from 'node:fs/promises';
import type { StoreAppendHandle, StoreFileStat, StoreFs } from './StoreFs.ts';
import { fsErrorCode } from './StoreFs.ts';

async function orUndefined<T>(work: Promise<T>): Promise<T | undefined> {
  try {
    return await work;
  } catch (error) {
    if (fsErrorCode(error) === 'ENOENT') return undefined;
    throw error;
  }
}

/** Never through a symbolic link at the end of the path (see `StoreFs`). */
const { O_RDONLY, O_WRONLY, O_CREAT, O_EXCL, O_TRUNC, O_APPEND, O_NOFOLLOW } = constants;

/** Files are created `rw-r--r--` unless told otherwise; the umask applies either way. */
const DEFAULT_MODE = 0o644;

async function withFile<T>(path: string, flags: number, use: (fh: FileHandle) => Promise<T>, mode = DEFAULT_MODE): Promise<T> {
  const fh = await open(path, flags | O_NOFOLLOW, mode);
  try {
    return await use(fh);
  } finally {
    await fh.close();
  }
}

async function readFrom(path: string, offset: number): Promise<Uint8Array | undefined> {
  return orUndefined(
    withFile(path, O_RDONLY, async (fh) => {
      const { size } = await fh.stat();
      const length = Math.max(0, size - offset);
      const buffer = new Uint8Array(length);
      let read = 0;
      while (read < length) {
        const { bytesRead } = await fh.read(buffer, read, length - read, offset + read);
        if (bytesRead === 0) break;
        read += bytesRead;
      }
      return read === length ? buffer : buffer.subarray(0, read);
    }),
  );
}

/** The chunk {@link readChunks} reads into, reused: few reads of a large document, and little memory held for it (bench row 5). */
const CHUNK_BYTES = 4 << 20;

async function readChunks(path: string, onChunk: (chunk: Uint8Array) => void): Promise<boolean> {
  const found = await orUndefined(
    withFile(path, O_RDONLY, async (fh) => {
      const buffer = new Uint8Array(CHUNK_BYTES);
      let position = 0;
      for (;;) {
        const { bytesRead } = await fh.read(buffer, 0, buffer.length, position);
        if (bytesRead === 0) return true;
        onChunk(buffer.subarray(0, bytesRead));
        position += bytesRead;
      }
    }),
  );
  return found ?? false;
}

class NodeAppendHandle implements StoreAppendHandle {
  constructor(private readonly fh: FileHandle) {}
  async append(data: Uint8Array): Promise<void> {
    let written = 0;
    while (written < data.length) {
      const { bytesWritten } = await this.fh.write(data, written, data.length - written);
      written += bytesWritten;
    }
  }
  sync(): Promise<void> {
    return this.fh.sync();
  }
  close(): Promise<void> {
    return this.fh.close();
  }
}

/**
 * The real file system, through `node:fs/promises`. `syncDir` opens the directory and
 * fsyncs it, which is what makes a `rename` durable on Linux.
 *
 * @example
 * ```ts
 * const opened = await FileStore.open('data/skillbook.json', { fs: nodeFs });
 * ```
 */
export const nodeFs: StoreFs = {
  readFile: (path) => readFrom(path, 0),
  readFrom,
  readChunks,
  async writeFile(path, data, options = {}) {
    const flags = O_WRONLY | O_CREAT | (options.exclusive ? O_EXCL : O_TRUNC);
    await withFile(
      path,
      flags,
      async (fh) => {
        await new NodeAppendHandle(fh).append(data);
        if (options.sync) await fh.sync();
      },
      options.mode,
    );
  },
  async openAppend(path, options = {}) {
    return new NodeAppendHandle(await open(path, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW, options.mode ?? DEFAULT_MODE));
  },
  async truncate(path, size) {
    await withFile(path, O_WRONLY, async (fh) => {
      await fh.truncate(size);
      await fh.sync();
    });
  },
  rename: (from, to) => rename(from, to),
  link: (existing, path) => link(existing, path),
  unlink: (path) => unlink(path),
  async stat(path): Promise<StoreFileStat | undefined> {
    const s = await orUndefined(lstat(path, { bigint: true }));
    if (!s) return undefined;
    if (s.isSymbolicLink())
      throw Object.assign(new Error(`ELOOP: a symbolic link, where the store keeps a file of its own: ${path}`), { code: 'ELOOP', path });
    const kind = s.isFile() ? 'file' : s.isDirectory() ? 'directory' : 'other';
    // not ctime: giving the file a second name (link) changes it, and that is no write
    return {
      kind,
      size: Number(s.size),
      mode: Number(s.mode) & 0o7777,
      identity: `${s.dev}:${s.ino}`,
      links: Number(s.nlink),
      fingerprint: `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}`,
    };
  },
  realpath: (path) => orUndefined(realpath(path)),
  async readdir(dir) {
    return (await orUndefined(readdir(dir))) ?? [];
  },
  async syncDir(dir) {
    const fh = await open(dir, O_RDONLY);
    try {
      await fh.sync();
    } finally {
      await fh.close();
    }
  },
  async mkdir(dir, options = {}) {
    await mkdir(dir, { recursive: true, ...(options.mode === undefined ? {} : { mode: options.mode }) });
  },
};
