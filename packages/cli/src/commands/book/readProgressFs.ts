import { readdir, stat } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import type { StoreFs } from '@cohort/store';
import type { ProgressBar } from '../../progressBar.ts';

/**
 * The bytes of a store's files: the document and every file beside it that carries its name
 * (journal, ledger, base, recovery copies, conflict log, lock). The total of the progress bar.
 */
export async function storeBytes(document: string): Promise<number> {
  const dir = dirname(document);
  const name = basename(document);
  const names = await readdir(dir).catch(() => [] as string[]);
  const sizes = await Promise.all(
    names
      .filter((n) => n.startsWith(name))
      .map((n) =>
        stat(join(dir, n)).then(
          (s) => (s.isFile() ? s.size : 0),
          () => 0,
        ),
      ),
  );
  return sizes.reduce((a, b) => a + b, 0);
}

/**
 * `fs` that moves `bar` as files are read: each file counts its size once, on its first
 * read, and the bar names the file being read. `inspectBook` takes a `StoreFs`, so the
 * progress of `book verify` and `book log` comes without a hook in the store.
 */
export function readProgressFs(fs: StoreFs, bar: ProgressBar): StoreFs {
  const counted = new Set<string>();
  let done = 0;
  const reading = async <T>(path: string, read: () => Promise<T>, size: (result: T) => number): Promise<T> => {
    bar.update(done, { file: basename(path) });
    const result = await read();
    if (!counted.has(path)) {
      counted.add(path);
      done += size(result);
      bar.update(done, { file: basename(path) });
    }
    return result;
  };
  return {
    ...fs,
    readFile: (path) =>
      reading(
        path,
        () => fs.readFile(path),
        (b) => b?.length ?? 0,
      ),
    readFrom: (path, offset) =>
      reading(
        path,
        () => fs.readFrom(path, offset),
        (b) => b?.length ?? 0,
      ),
    readChunks: (path, onChunk) => {
      let bytes = 0;
      return reading(
        path,
        () =>
          fs.readChunks(path, (chunk) => {
            bytes += chunk.length;
            onChunk(chunk);
          }),
        () => bytes,
      );
    },
  };
}
