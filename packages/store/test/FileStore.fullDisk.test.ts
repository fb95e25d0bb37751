import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileStore, describeOpenError } from '@cohort/store';
import type { AppendResult } from '@cohort/store';
import { addOp, makeCommit } from '@cohort/store/testing';
import { DOC, freshSimStore, openSim } from './utils/simStore.ts';
import { mountTmpfs } from './utils/tmpfs.ts';

const tempFiles = (names: readonly string[]): string[] => names.filter((n) => n.endsWith('.tmp') || n.includes('cohort-tmp'));

/**
 * Appends `n` skills one after the other, each on the book of the last one acknowledged, and
 * looks for temporary files once the store is idle: an append is acknowledged before the
 * checkpoint it triggers runs, so its files may still be open right after the answer.
 */
async function appendMany(
  store: FileStore,
  n: number,
  label: string,
  check: (names: () => Promise<string[]>) => Promise<void>,
  names: () => Promise<string[]>,
): Promise<AppendResult[]> {
  const results: AppendResult[] = [];
  for (let i = 0; i < n; i += 1) {
    const r = await store.append(makeCommit(store.book, [addOp(`${label} ${i} ${'x'.repeat(400)}`)], { basis: 'store' }).commit);
    results.push(r);
    await store.load();
    await check(names);
  }
  return results;
}

describe('FileStore on a full disk', () => {
  it('full disk - failed writes are io refusals and leave no temporary file; once space is back the same store appends again, and nothing acknowledged is lost', async () => {
    const { sim, store, seen } = await freshSimStore({ checkpointEvery: 4, checkpointJournalRatio: 0 });
    sim.setCapacity(sim.used + 12_000);
    const names = async (): Promise<string[]> => sim.list('/db');
    const noTemp = async (list: () => Promise<string[]>): Promise<void> => void expect(tempFiles(await list())).toEqual([]);
    const during = await appendMany(store, 40, 'full', noTemp, names);
    const refused = during.filter((r) => !r.ok);
    expect(refused.length).toBeGreaterThan(0);
    for (const r of refused) expect(r).toMatchObject({ ok: false, error: { code: 'io' } });
    expect(seen.some((n) => n.type === 'store.io_failed' && n.poisoned)).toBe(false);
    const acknowledged = during.filter((r) => r.ok).length;

    sim.setCapacity(null);
    const after = await appendMany(store, 5, 'after', noTemp, names);
    expect(after.every((r) => r.ok)).toBe(true);
    await store.close();
    expect(tempFiles(sim.list('/db'))).toEqual([]);
    const { store: reopened } = await openSim(sim);
    expect(reopened.book.size).toBe(acknowledged + 5);
    await reopened.close();
  });

  it('full disk - with not a byte free (not even for the writer lock) appends are io refusals, and the store is not stuck once space is back', async () => {
    const { sim, store } = await freshSimStore({ checkpointEvery: 1000 });
    const first = await store.append(makeCommit(store.book, [addOp('before')]).commit);
    expect(first.ok).toBe(true);
    await store.load(); // once it resolves, the writer lock of the append is released too
    expect(sim.list('/db')).not.toContain('skillbook.json.lock');
    sim.setCapacity(sim.used);
    for (let i = 0; i < 3; i += 1) {
      const r = await store.append(makeCommit(store.book, [addOp(`refused ${i}`)], { basis: 'store' }).commit);
      expect(r).toMatchObject({ ok: false, error: { code: 'io' } });
    }
    sim.setCapacity(null);
    const after = await store.append(makeCommit(store.book, [addOp('after')], { basis: 'store' }).commit);
    expect(after.ok).toBe(true);
    await store.close();
    const { store: reopened } = await openSim(sim);
    expect([...reopened.book.skills()].map((k) => k.issue)).toEqual(['before', 'after']);
    await reopened.close();
  });

  it('full disk - temporary files a crash left behind are removed by the next open', async () => {
    const { sim, store } = await freshSimStore({ checkpointEvery: 1000 });
    const r = await store.append(makeCommit(store.book, [addOp('kept')]).commit);
    expect(r.ok).toBe(true);
    // the power goes while a checkpoint writes its temporary files, before its commit point
    sim.crashOn((op) => op.kind === 'sync' && op.path === `${DOC}.base.cohort-tmp`, { mode: 'process' });
    await store.checkpoint();
    expect(tempFiles(sim.list('/db')).length).toBeGreaterThan(0);
    const { store: reopened } = await openSim(sim);
    expect(tempFiles(sim.list('/db'))).toEqual([]);
    expect(reopened.book.get('context-00001')?.issue).toBe('kept');
    await reopened.close();
  });

  it('full disk - on a real 256 KB tmpfs: refusals while full, no temporary files left, appends again once it is grown, nothing acknowledged lost', async (ctx) => {
    const disk = await mountTmpfs('size=256k');
    if (!disk) return ctx.skip();
    try {
      const path = join(disk.dir, 'skillbook.json');
      const opened = await FileStore.open(path, { idleCheckpointMs: 0, checkpointEvery: 8, checkpointJournalRatio: 0 });
      if (!opened.ok) throw new Error(describeOpenError(opened.error));
      const store = opened.store;
      const names = (): Promise<string[]> => readdir(disk.dir);
      const noTemp = async (list: () => Promise<string[]>): Promise<void> => void expect(tempFiles(await list())).toEqual([]);
      const during = await appendMany(store, 160, 'full', noTemp, names);
      const refused = during.filter((r) => !r.ok);
      expect(refused.length).toBeGreaterThan(0);
      for (const r of refused) expect(r).toMatchObject({ ok: false, error: { code: 'io' } });
      const acknowledged = during.filter((r) => r.ok).length;
      await disk.remount('size=4m');
      const after = await appendMany(store, 5, 'after', noTemp, names);
      expect(after.map((r) => r.ok)).toEqual([true, true, true, true, true]);
      await store.close();
      expect(tempFiles(await names())).toEqual([]);
      const again = await FileStore.open(path, { idleCheckpointMs: 0 });
      expect(again.ok && again.store.book.size).toBe(acknowledged + 5);
      if (again.ok) await again.store.close();
    } finally {
      await disk.unmount();
    }
  });
});
