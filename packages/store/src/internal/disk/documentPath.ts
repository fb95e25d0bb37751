import { basename, dirname, join, resolve } from 'node:path';
import type { StoreFs } from '../../StoreFs.ts';
import { fsErrorCode } from '../../StoreFs.ts';
import type { StoreOpenError } from '../../StoreOpenError.ts';

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
  if (path.endsWith('/') || name === '' || name === '.' || name === '..') return `the document's path must end in a file name: ${JSON.stringify(path)}`;
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
    const seen = await fs.stat(named).then(() => 'file', (error: unknown) => (fsErrorCode(error) === 'ELOOP' ? 'link' : 'file'));
    if (seen === 'link') return { ok: false, error: { code: 'symlink', message: 'the document is a symbolic link to a file that does not exist', file: path } };
    return { ok: true, document: named === absolute ? path : named };
  }
  const stat = await fs.stat(real);
  if (stat && stat.kind !== 'file') {
    return { ok: false, error: { code: 'invalid_options', message: `the document's path names a ${stat.kind === 'directory' ? 'directory' : 'file that is not a regular file'}`, file: path } };
  }
  return { ok: true, document: real === absolute ? path : real };
}
