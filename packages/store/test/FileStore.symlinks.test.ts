import { readFile, readlink, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileStore } from '@cohort/store';
import { addOp, makeCommit } from '@cohort/store/testing';
import { openFileStore } from './utils/fileStores.ts';
import { useTempDirs } from './utils/tempDirs.ts';

const tempDir = useTempDirs('links');

const open = openFileStore;

describe('FileStore and symbolic links', () => {
  it("symlinks - a document opened under a link and under its real name is one store: one lock, both writers' merges in both, the link kept", async () => {
    const dir = await tempDir();
    const real = join(dir, 'skillbook.json');
    const alias = join(dir, 'alias.json');
    await (await open(real)).close();
    await symlink(real, alias);
    const a = await open(real, { checkpointEvery: 1 });
    const b = await open(alias, { checkpointEvery: 1 });
    expect(b.path).toBe(real);
    for (let i = 0; i < 3; i += 1) {
      for (const [name, store] of [
        ['a', a],
        ['b', b],
      ] as const) {
        const snapshot = await store.load();
        const r = await store.append(makeCommit(snapshot.book, [addOp(`${name} ${i}`)], { basis: 'store' }).commit);
        expect(r.ok, r.ok ? '' : r.error.message).toBe(true);
      }
    }
    await a.close();
    await b.close();
    expect(await readlink(alias)).toBe(real);
    for (const path of [real, alias]) {
      const again = await open(path);
      expect([...again.book.skills()].map((k) => k.issue).sort()).toEqual(['a 0', 'a 1', 'a 2', 'b 0', 'b 1', 'b 2']);
      await again.close();
    }
  });

  it('symlinks - a link to a missing file is refused as the document, naming it', async () => {
    const dir = await tempDir();
    const alias = join(dir, 'alias.json');
    await symlink(join(dir, 'nowhere.json'), alias);
    const opened = await FileStore.open(alias);
    expect(opened).toMatchObject({ ok: false, error: { code: 'symlink', file: alias } });
    expect(await readlink(alias)).toBe(join(dir, 'nowhere.json'));
  });

  it('symlinks - a link planted as a side file (journal, ledger, base, conflict log, lock, snapshot) is refused naming it, and its target is untouched', async () => {
    for (const side of ['journal', 'ledger', 'base', 'conflicts', 'lock', 'snapshot']) {
      const dir = await tempDir();
      const document = join(dir, 'skillbook.json');
      const store = await open(document);
      const r = await store.append(makeCommit(store.book, [addOp('kept')]).commit);
      expect(r.ok).toBe(true);
      await store.close();
      const target = join(dir, 'precious.txt');
      await writeFile(target, 'do not touch\n');
      const file = `${document}.${side}`;
      await rm(file, { force: true });
      await symlink(target, file);
      const opened = await FileStore.open(document, { idleCheckpointMs: 0, lockWaitMs: 0 });
      expect(opened, side).toMatchObject({ ok: false, error: { code: 'symlink', file } });
      expect(await readFile(target, 'utf8')).toBe('do not touch\n');
      expect(await readlink(file)).toBe(target);
    }
  });
});
