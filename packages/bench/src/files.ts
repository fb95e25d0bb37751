/** Files for the scenarios that measure a store: a scratch directory, and a store opened in it. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FileStore, describeOpenError } from '@cohort/store';
import type { FileStoreOptions } from '@cohort/store';

/** Runs `fn` with a new scratch directory (`cohort-bench-<name>-…`), removed afterwards whatever happens. */
export async function withTempDir<T>(name: string, fn: (dir: string) => T | Promise<T>): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), `cohort-bench-${name}-`));
  try {
    return await fn(dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Opens a file store, or throws naming `who` and why it could not be opened. */
export async function openFileStore(path: string, options: FileStoreOptions, who: string): Promise<FileStore> {
  const opened = await FileStore.open(path, options);
  if (!opened.ok) throw new Error(`${who}: ${describeOpenError(opened.error)}`);
  return opened.store;
}
