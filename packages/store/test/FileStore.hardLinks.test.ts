import { link, mkdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileStore, describeOpenError, inspectBook } from '@cohort/store';
import { storeWithOneSkill } from './utils/fileStores.ts';
import { useTempDirs } from './utils/tempDirs.ts';

const tempDir = useTempDirs('hardlinks');

describe('FileStore and hard links', () => {
  it('hard links - a document with a second name is refused under either name, naming the file; nothing is written', async () => {
    const dir = await tempDir();
    const document = join(dir, 'skillbook.json');
    await storeWithOneSkill(document, 'kept');
    await mkdir(join(dir, 'elsewhere'));
    const other = join(dir, 'elsewhere', 'book.json');
    await link(document, other);
    const before = await readFile(document, 'utf8');
    for (const path of [document, other]) {
      const opened = await FileStore.open(path, { idleCheckpointMs: 0 });
      expect(opened.ok ? null : opened.error).toMatchObject({ code: 'hard_link', file: path });
      if (!opened.ok) {
        expect(describeOpenError(opened.error)).toContain('has 2 names (hard links)');
      }
    }
    await expect(stat(`${other}.journal`)).rejects.toMatchObject({ code: 'ENOENT' });
    await expect(stat(`${other}.lock`)).rejects.toMatchObject({ code: 'ENOENT' });
    expect(await readFile(document, 'utf8')).toBe(before);
    const report = await inspectBook(other);
    expect(report.ok).toBe(false);
    expect(report.findings.map((f) => f.code)).toContain('hard_link');
  });

  it("hard links - the name a checkpoint keeps for the file it replaced (.replaced) is the store's own: the document opens", async () => {
    const dir = await tempDir();
    const document = join(dir, 'skillbook.json');
    await storeWithOneSkill(document, 'kept');
    // as a crash between keeping the old file's second name and renaming the new one leaves it
    await link(document, `${document}.replaced`);
    const opened = await FileStore.open(document, { idleCheckpointMs: 0 });
    expect(opened.ok ? [...opened.store.book.skills()].map((s) => s.issue) : opened.error).toEqual(['kept']);
    if (opened.ok) await opened.store.close();
  });
});
