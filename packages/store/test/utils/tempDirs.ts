import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';

/**
 * Fresh real directories for the tests of one file (`cohort-<prefix>-…` under the system's
 * temporary directory), removed after each test — made writable first, for a test that took
 * the permission away.
 */
export function useTempDirs(prefix: string): () => Promise<string> {
  const dirs: string[] = [];
  afterEach(async () => {
    for (const d of dirs.splice(0)) {
      await chmod(d, 0o755).catch(() => undefined);
      await rm(d, { recursive: true, force: true });
    }
  });
  return async () => {
    const dir = await mkdtemp(join(tmpdir(), `cohort-${prefix}-`));
    dirs.push(dir);
    return dir;
  };
}
