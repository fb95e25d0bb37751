import { fsErrorCode, fsErrorPath } from './StoreFs.ts';
import type { LockHolder, StoreNotice } from './StoreNotice.ts';

/** Stable codes of every way opening a file store can fail. */
export type StoreOpenErrorCode =
  | 'corrupt_journal'
  | 'unreadable_document'
  | 'unsupported_schema_version'
  | 'unreadable_ledger'
  | 'unreadable_base'
  | 'missing_document'
  | 'invalid_options'
  | 'locked'
  | 'symlink'
  | 'hard_link'
  | 'io';

/** Where in a file the problem is: a byte offset, a 1-based line (and column), a JSON path. */
export interface FilePosition {
  readonly offset?: number;
  readonly line?: number;
  readonly column?: number;
  readonly path?: string;
}

/**
 * Why a file store did not open. It names the file and, where it can, the position; opening
 * wrote nothing when it fails this way (a torn journal tail is not a failure: it is cut, with
 * a `store.torn_tail_cut` notice).
 */
export interface StoreOpenError {
  readonly code: StoreOpenErrorCode;
  readonly message: string;
  readonly file: string;
  readonly position?: FilePosition;
  readonly holder?: LockHolder;
  readonly cause?: unknown;
}

/** The result of opening a store: the store and the notices opening produced, or why it did not open. */
export type OpenResult<S> =
  | { readonly ok: true; readonly store: S; readonly notices: readonly StoreNotice[] }
  | { readonly ok: false; readonly error: StoreOpenError };

/** Line and column (1-based) of a byte-free character offset in `text`. */
export function lineAndColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lastBreak = -1;
  for (let i = 0; i < offset && i < text.length; i += 1) {
    if (text.charCodeAt(i) === 10) {
      line += 1;
      lastBreak = i;
    }
  }
  return { line, column: offset - lastBreak };
}

/** A one-line description of an open error, for people: `code: message (file:line:column)`. */
export function describeOpenError(error: StoreOpenError): string {
  const p = error.position;
  const where =
    p?.line !== undefined ? `:${p.line}${p.column !== undefined ? `:${p.column}` : ''}` : p?.offset !== undefined ? ` @${p.offset}` : '';
  const path = p?.path ? ` at ${p.path}` : '';
  return `${error.code}: ${error.message} (${error.file}${where}${path})`;
}

/**
 * A file-system failure while opening, as an open error naming the file it is about: a
 * symbolic link where the store keeps a file of its own (`ELOOP`) is `symlink`, anything else
 * (no permission, a read-only or full disk) is `io`.
 */
export function openFailure(error: unknown, file: string): StoreOpenError {
  const at = fsErrorPath(error) ?? file;
  const message = error instanceof Error ? error.message : String(error);
  if (fsErrorCode(error) === 'ELOOP') {
    return {
      code: 'symlink',
      message: `${at} is a symbolic link: the store never follows a link for a file of its own; move it away (or put the file it points to there)`,
      file: at,
      cause: error,
    };
  }
  return { code: 'io', message: `opening failed: ${message}`, file: at, cause: error };
}
