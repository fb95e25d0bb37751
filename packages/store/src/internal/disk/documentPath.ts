import { basename, dirname, join, resolve } from 'node:path';
import type { StoreFileStat, StoreFs } from '../../StoreFs.ts';
import { fsErrorCode } from '../../StoreFs.ts';
import type { StoreOpenError } from '../../StoreOpenError.ts';
import { storePaths } from './StorePaths.ts';

/**
 * Why `path` cannot name a store's document, or `null`: it must be a non-empty string without
 * a NUL byte whose last part is a file name (not `.`, `..`, or nothing after a slash), so that
 * every file of the store lands beside it — never in the working directory by accident.
 */
export function documentPathProblem(path: unknown): string | null {
  if (typeof path !== 'string') return `the document's path must be a string, not ${path === null ? 'null' : typeof path}`;
  if (path === '') return "the document's path is empty";
  if (path.includes('\0')) return "the document's path contains a NUL byte";
  const name = basename(path);
  if (path.endsWith('/') || name === '' || name === '.' || name === '..')
    return `the document's path must end in a file name: ${JSON.stringify(path)}`;
  return null;
}

/** Where the store's document really is, or why it cannot be opened there. */
export type ResolvedDocument = { readonly ok: true; readonly document: string } | { readonly ok: false; readonly error: StoreOpenError };

/**
 * The document's real path, so that one file has one store (one lock, one journal) whatever
 * name it is opened under: a document that is a symbolic link is opened as the file it points
 * to (the link stays as it is), a link in the directory part is resolved too. The path is kept
 * as given when it is already the real one. A link to nothing, a directory or anything else
 * that is not a file is refused. The directory must exist (the caller creates it first).
 */
export async function resolveDocument(fs: StoreFs, path: string): Promise<ResolvedDocument> {
  const absolute = resolve(path);
  const dir = (await fs.realpath(dirname(absolute))) ?? dirname(absolute);
  const named = join(dir, basename(absolute));
  const real = await fs.realpath(named);
  if (real === undefined) {
    // missing — or a link to nothing, which creating the document would replace with a file
    const seen = await fs.stat(named).then(
      () => 'file',
      (error: unknown) => (fsErrorCode(error) === 'ELOOP' ? 'link' : 'file'),
    );
    if (seen === 'link')
      return {
        ok: false,
        error: { code: 'symlink', message: 'the document is a symbolic link to a file that does not exist', file: path },
      };
    return { ok: true, document: named === absolute ? path : named };
  }
  const stat = await fs.stat(real);
  if (stat && stat.kind !== 'file') {
    return {
      ok: false,
      error: {
        code: 'invalid_options',
        message: `the document's path names a ${stat.kind === 'directory' ? 'directory' : 'file that is not a regular file'}`,
        file: path,
      },
    };
  }
  const linked = stat ? await otherNames(fs, real, stat) : 0;
  if (linked > 0) return { ok: false, error: hardLinked(path, linked + 1) };
  return { ok: true, document: real === absolute ? path : real };
}

/**
 * How many names the document has besides `real` and the one a checkpoint keeps for the file it
 * replaced (`.replaced`, the store's own, left by a crash before the rename).
 */
async function otherNames(fs: StoreFs, real: string, stat: StoreFileStat): Promise<number> {
  if (stat.links === undefined || stat.links <= 1) return 0;
  const replaced = await fs.stat(storePaths(real).replaced).catch(() => undefined);
  return stat.links - 1 - (replaced?.identity === stat.identity ? 1 : 0);
}

/**
 * A document with other hard links cannot be one store: its journal and lock sit beside the
 * name it is opened under, and a checkpoint replaces the file by rename, so each name would
 * become a store of its own and they would part silently.
 */
function hardLinked(path: string, names: number): StoreOpenError {
  return {
    code: 'hard_link',
    message:
      `the document has ${names} names (hard links): a store is one file under one name, with its journal and lock beside it; ` +
      'remove the other names, or make them symbolic links to this one',
    file: path,
  };
}
