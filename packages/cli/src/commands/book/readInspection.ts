import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { fsErrorCode, inspectBook, nodeFs } from '@cohort/store';
import type { BookInspection } from '@cohort/store';
import type { CliIo } from '../../CliIo.ts';
import { startProgress } from '../../progressBar.ts';
import { isPostgresUrl, readPostgresInspection } from './postgresTarget.ts';
import { readProgressFs, storeBytes } from './readProgressFs.ts';

/** Why `path` cannot be a store's document, in words for the user, or `null` when it is a file. */
export async function pathProblem(path: string): Promise<string | null> {
  const found = await stat(path).catch((error: unknown) => fsErrorCode(error) ?? 'EIO');
  if (typeof found === 'string') {
    return found === 'ENOENT'
      ? `${path} does not exist (give the store's document, e.g. data/skillbook.json)`
      : `cannot read ${path} (${found})`;
  }
  if (found.isDirectory()) {
    const inside = join(path, 'skillbook.json');
    const hint = await stat(inside).then(
      (s) => s.isFile(),
      () => false,
    );
    return `${path} is a directory: give the store's document${hint ? `, e.g. ${inside}` : ' (its .json file)'}`;
  }
  return found.isFile() ? null : `${path} is not a file`;
}

/**
 * Inspects the store of `document` (or the PostgreSQL store of a `postgres://` URL) for
 * `cohort book <command>`, or prints why it cannot
 * (missing path, a directory, an unreadable file) on stderr and resolves with `null`.
 * With `progress`, a bar on a terminal follows the bytes read (large stores take seconds).
 */
export async function readInspection(command: string, document: string, io: CliIo, progress: boolean): Promise<BookInspection | null> {
  if (isPostgresUrl(document)) return readPostgresInspection(command, document, io);
  const problem = await pathProblem(document);
  if (problem) {
    io.err.write(`cohort book ${command}: ${problem}\n`);
    return null;
  }
  const bar = progress ? startProgress(io.err, await storeBytes(document), '[{bar}] {percentage}% reading {file}', { file: '' }) : null;
  try {
    return await inspectBook(document, bar ? { fs: readProgressFs(nodeFs, bar) } : {});
  } catch (error) {
    io.err.write(`cohort book ${command}: cannot read ${document}: ${error instanceof Error ? error.message : String(error)}\n`);
    return null;
  } finally {
    bar?.stop();
  }
}
