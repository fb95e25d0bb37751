import { chmod, mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileStore } from '@cohort/store';
import { mountTmpfs } from './utils/tmpfs.ts';
import { useTempDirs } from './utils/tempDirs.ts';

const tempDir = useTempDirs('paths');

describe('FileStore.open paths', () => {
  it('open paths - an empty path, a path with a NUL byte, a directory or a name that is no file name are invalid_options, and nothing is written', async () => {
    const dir = await tempDir();
    const cwd = process.cwd();
    process.chdir(dir);
    try {
      for (const path of [
        '',
        'a\u0000b.json',
        join(dir, 'x\u0000.json'),
        dir,
        `${dir}/`,
        join(dir, '.'),
        join(dir, '..'),
        42 as unknown as string,
      ]) {
        const opened = await FileStore.open(path);
        expect(opened, JSON.stringify(path)).toMatchObject({ ok: false, error: { code: 'invalid_options' } });
      }
    } finally {
      process.chdir(cwd);
    }
    expect(await readdir(dir)).toEqual([]);
  });

  it('open paths - a directory it may not write is a structured io error naming the file, never a throw', async (ctx) => {
    let dir: string;
    let done = async (): Promise<void> => undefined;
    if (process.getuid?.() === 0) {
      // root writes through any mode bits: a read-only file system refuses even root
      const ro = await mountTmpfs('size=64k,ro');
      if (!ro) return ctx.skip();
      dir = ro.dir;
      done = ro.unmount;
    } else {
      dir = join(await tempDir(), 'locked');
      await mkdir(dir);
      await chmod(dir, 0o555);
    }
    try {
      for (const path of [join(dir, 'skillbook.json'), join(dir, 'sub', 'skillbook.json')]) {
        const opened = await FileStore.open(path);
        expect(opened).toMatchObject({ ok: false, error: { code: 'io', file: expect.stringContaining(dir) } });
      }
    } finally {
      await done();
    }
  });
});
