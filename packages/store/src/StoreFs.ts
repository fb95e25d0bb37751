/**
 * The small file-system surface the file store needs, injectable so tests and the
 * simulation can tear unsynced writes, fail an fsync or crash between two writes
 * ({@link SimFs}); {@link nodeFs} is the real one.
 *
 * Methods reject with an `Error` carrying a Node-style `code` (`ENOENT`, `EEXIST`, `EIO`,
 * `ENOSPC`, …) and, where there is one, the `path` it is about, like `node:fs`: this is a port to
 * the operating system, and the store turns every such rejection into a value (`StoreError`
 * code `io`) before it reaches a caller.
 *
 * No method follows a symbolic link in the last part of a path (`O_NOFOLLOW`): a link where a
 * file is expected rejects with `ELOOP`, so a link planted as one of the store's files is never
 * written through. Only {@link StoreFs.realpath} resolves links (the document's own name).
 */
export interface StoreFs {
  /**
   * The whole file, or `undefined` when it does not exist. The bytes are the caller's own and
   * must never change afterwards (a fresh buffer each call, as `node:fs` gives): the store
   * keeps the journal's bytes as read and decodes a commit line from them again when it needs
   * it, instead of holding every line parsed (bench row 5).
   */
  readFile(path: string): Promise<Uint8Array | undefined>;
  /** The bytes from `offset` to the end (empty past the end), or `undefined` when the file does not exist; the caller's own, as for `readFile`. */
  readFrom(path: string, offset: number): Promise<Uint8Array | undefined>;
  /**
   * Reads the whole file in order, a chunk at a time, handing each chunk to `onChunk` (the
   * buffer may be reused for the next chunk: use it before returning); `false` when the file
   * does not exist. For digesting a large file without holding a copy of it (bench row 5).
   */
  readChunks(path: string, onChunk: (chunk: Uint8Array) => void): Promise<boolean>;
  /**
   * Creates or truncates `path` and writes `data`. `exclusive` fails with `EEXIST` when the
   * file exists (the lock file); `sync` fsyncs the file before resolving. The directory
   * entry is durable only after {@link StoreFs.syncDir}.
   */
  writeFile(
    path: string,
    data: Uint8Array,
    options?: { readonly exclusive?: boolean; readonly sync?: boolean; readonly mode?: number },
  ): Promise<void>;
  /** Opens `path` for appending, creating it (with `mode`, less the umask) when missing. */
  openAppend(path: string, options?: { readonly mode?: number }): Promise<StoreAppendHandle>;
  /** Cuts `path` to `size` bytes and fsyncs it. */
  truncate(path: string, size: number): Promise<void>;
  /** Atomically replaces `to` with `from` (POSIX `rename`). */
  rename(from: string, to: string): Promise<void>;
  /** Gives the file at `existing` a second name (POSIX `link`); rejects with `EEXIST` when `path` exists. */
  link(existing: string, path: string): Promise<void>;
  /** Removes `path`; rejects with `ENOENT` when it does not exist. */
  unlink(path: string): Promise<void>;
  /** Size and identity of `path` itself (`lstat`: a symbolic link rejects with `ELOOP`), or `undefined` when it does not exist. */
  stat(path: string): Promise<StoreFileStat | undefined>;
  /** The absolute path with every symbolic link in it resolved, or `undefined` when it does not exist (a link to nothing included). */
  realpath(path: string): Promise<string | undefined>;
  /** The names (not paths) in `dir`; empty when it does not exist. */
  readdir(dir: string): Promise<string[]>;
  /** Makes `dir`'s entries (creations, renames, removals) durable. */
  syncDir(dir: string): Promise<void>;
  /** Creates `dir` and its parents when missing (with `mode`, less the umask); an existing directory's permissions are left as they are. */
  mkdir(dir: string, options?: { readonly mode?: number }): Promise<void>;
}

/** An open append-only file. */
export interface StoreAppendHandle {
  /** Appends `data` at the end of the file (one write). */
  append(data: Uint8Array): Promise<void>;
  /** fsyncs the file: resolves once every appended byte is durable. */
  sync(): Promise<void>;
  close(): Promise<void>;
}

/** What {@link StoreFs.stat} reports. */
export interface StoreFileStat {
  /** A regular file, a directory, or something else (a device, a socket, a pipe). */
  readonly kind: 'file' | 'directory' | 'other';
  readonly size: number;
  /** The permission bits (`0o644`), where the file system has them. */
  readonly mode?: number;
  /** The file itself (device and inode): unchanged by writes, different for another file under the same name. */
  readonly identity: string;
  /** How many names (hard links) the file has, where the file system says. */
  readonly links?: number;
  /**
   * Changes whenever the file's content may have changed: its identity (inode), size and
   * modification time (a second name, `link`, must not change it). Two equal fingerprints mean the store need not re-read the file.
   */
  readonly fingerprint: string;
}

/** The `code` of a rejection from a {@link StoreFs} method (`ENOENT`, `EIO`, …), if any. */
export function fsErrorCode(error: unknown): string | undefined {
  if (typeof error === 'object' && error !== null && 'code' in error) {
    const code = (error as { code: unknown }).code;
    return typeof code === 'string' ? code : undefined;
  }
  return undefined;
}

/** Creates an `Error` with a Node-style `code` (and the `path` it is about), as {@link StoreFs} implementations reject with. */
export function fsError(code: string, message: string, path?: string): Error & { code: string; path?: string } {
  return Object.assign(new Error(`${code}: ${message}`), { code }, path === undefined ? {} : { path });
}

/** The `path` of a rejection from a {@link StoreFs} method, if it names one. */
export function fsErrorPath(error: unknown): string | undefined {
  if (typeof error === 'object' && error !== null && 'path' in error) {
    const path = (error as { path: unknown }).path;
    return typeof path === 'string' ? path : undefined;
  }
  return undefined;
}
