import { chmod, readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileStore } from '@cohort/store';
import type { FileStoreOptions } from '@cohort/store';
import { storeWithOneSkill } from './utils/fileStores.ts';
import { useTempDirs } from './utils/tempDirs.ts';

const tempDir = useTempDirs('mode');

const modeOf = async (path: string): Promise<number> => (await stat(path)).mode & 0o777;

/** Opens, appends, checkpoints (document, base, ledger, snapshot, journal, origin) and closes. */
const use = (path: string, options: FileStoreOptions = {}): Promise<void> => storeWithOneSkill(path, 'private', options);

describe('FileStore file modes', () => {
  it('file mode - fileMode: 0o600 makes every file of the store owner-only, and a directory it creates owner-only too', async () => {
    const umask = process.umask(0o022);
    try {
      const dir = join(await tempDir(), 'private');
      const path = join(dir, 'skillbook.json');
      await use(path, { fileMode: 0o600 });
      expect(await modeOf(dir)).toBe(0o700);
      const files = await readdir(dir);
      expect(files.length).toBeGreaterThanOrEqual(5);
      for (const name of files) expect([name, await modeOf(join(dir, name))]).toEqual([name, 0o600]);
    } finally {
      process.umask(umask);
    }
  });

  it('file mode - by default a checkpoint keeps the mode the document has, and an existing directory keeps its own', async () => {
    const umask = process.umask(0o022);
    try {
      const dir = await tempDir();
      await chmod(dir, 0o750);
      const path = join(dir, 'skillbook.json');
      await use(path);
      expect(await modeOf(path)).toBe(0o644);
      await chmod(path, 0o640);
      await use(path);
      expect(await modeOf(path)).toBe(0o640);
      expect(await modeOf(`${path}.journal`)).toBe(0o644);
      expect(await modeOf(dir)).toBe(0o750);
    } finally {
      process.umask(umask);
    }
  });

  it('file mode - a mode that is no permission bits is invalid_options', async () => {
    for (const fileMode of [-1, 0o1000, 1.5, Number.NaN]) {
      const opened = await FileStore.open(join(await tempDir(), 'skillbook.json'), { fileMode });
      expect(opened).toMatchObject({ ok: false, error: { code: 'invalid_options' } });
    }
  });
});
