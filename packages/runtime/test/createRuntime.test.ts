import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRuntime } from '@cohort/runtime';
import type { RuntimeEvent } from '@cohort/runtime';
import { Skillbook } from '@cohort/skillbook';
import { FileStore, MemoryStore, describeOpenError } from '@cohort/store';
import type { StoreSnapshot } from '@cohort/store';
import { SpyStore } from './utils/spyStore.ts';
import { useTempDirs } from '../../store/test/utils/tempDirs.ts';

const tempDir = useTempDirs('rt-open');

async function documentWith(skills: number): Promise<string> {
  const dir = await tempDir();
  const book = Skillbook.empty().applyBatch({
    operations: Array.from({ length: skills }, (_, i) => ({ type: 'ADD', section: 'context', issue: `known ${i}`, insight: 'x' })),
  });
  if (!book.ok) throw new Error(book.error.message);
  const path = join(dir, 'skillbook.json');
  await writeFile(path, book.book.toJSON());
  return path;
}

async function open(path: string): Promise<FileStore> {
  const opened = await FileStore.open(path, { idleCheckpointMs: 0 });
  if (!opened.ok) throw new Error(describeOpenError(opened.error));
  return opened.store;
}

describe("createRuntime - a store's book from the start", () => {
  it('no empty window - on a file store holding 9 skills, rt.book and rt.revision are right at once, before ready', async () => {
    const store = await open(await documentWith(9));
    const rt = createRuntime({ store });
    expect(rt.book.size).toBe(9);
    expect(rt.revision).toBe(store.book.revision);
    expect(rt.book.get('context-00009')?.issue).toBe('known 8');
    await rt.ready;
    expect(rt.book.size).toBe(9);
    await rt.close();
  });

  it('ready - a store that loads asynchronously shows an empty book until ready resolves, then its own', async () => {
    const seeded = Skillbook.empty().applyBatch({ operations: [{ type: 'ADD', section: 'context', issue: 'remote', insight: 'x' }] });
    if (!seeded.ok) throw new Error(seeded.error.message);
    const remote = new MemoryStore(seeded.book);
    const store = new SpyStore(remote);
    let loaded: StoreSnapshot | null = null;
    store.current = () => loaded;
    store.load = async () => (loaded = await remote.load());
    const rt = createRuntime({ store });
    expect(rt.book.size).toBe(0);
    await rt.ready;
    expect(rt.book.get('context-00001')?.issue).toBe('remote');
    await rt.close();
  });

  it('open notices - what the store raised while opening (an ACE edit adopted) reaches every events$ subscriber, first', async () => {
    const path = await documentWith(1);
    await (await open(path)).close();
    // ACE adds a skill to the document while no Cohort process runs
    const ace = Skillbook.fromJSON(await readFile(path, 'utf8')).applyBatch({
      operations: [{ type: 'ADD', section: 'context', issue: 'by ACE', insight: 'x' }],
    });
    if (!ace.ok) throw new Error(ace.error.message);
    await writeFile(path, ace.book.toJSON());
    const store = await open(path);
    expect(store.openNotices.map((n) => n.type)).toContain('store.adopted');
    const rt = createRuntime({ store });
    await rt.ready;
    const early: RuntimeEvent[] = [];
    const late: RuntimeEvent[] = [];
    rt.events$.subscribe((e) => early.push(e));
    await rt.run(async (s) => s.tools.add_skill({ section: 'harness', issue: 'after', insight: 'y' }));
    rt.events$.subscribe((e) => late.push(e));
    const opened = store.openNotices.length;
    expect(early.slice(0, opened)).toEqual(store.openNotices);
    expect(early.find((e) => e.type === 'store.adopted')).toMatchObject({ source: 'external' });
    expect(early.slice(opened).some((e) => e.type === 'session.merged')).toBe(true);
    expect(late).toEqual(store.openNotices);
    await rt.close();
  });
});
