import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** A real tmpfs mounted for a test, and how to take it away again. */
export interface Tmpfs {
  readonly dir: string;
  /** Remounts it with other options (`size=…`, `ro`, `rw`). */
  remount(options: string): Promise<void>;
  unmount(): Promise<void>;
}

/**
 * Mounts a tmpfs with `options` (`size=256k`, `ro`) on a fresh directory, or `null` when this
 * machine does not allow it (not root, no `mount`). In CI, where the tests run as root, a mount
 * that fails is an error, not a skip: the test it serves must run there.
 */
export async function mountTmpfs(options: string): Promise<Tmpfs | null> {
  const dir = await mkdtemp(join(tmpdir(), 'cohort-tmpfs-'));
  try {
    await run('mount', ['-t', 'tmpfs', '-o', options, 'tmpfs', dir]);
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    if (process.env['CI']) throw new Error(`CI must be able to mount a tmpfs (run as root): ${(error as Error).message}`);
    return null;
  }
  return {
    dir,
    remount: async (more) => void (await run('mount', ['-o', `remount,${more}`, dir])),
    unmount: async () => {
      await run('umount', [dir]).catch(() => run('umount', ['-l', dir]));
      await rm(dir, { recursive: true, force: true });
    },
  };
}
