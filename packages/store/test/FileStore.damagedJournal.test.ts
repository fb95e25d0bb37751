import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileStore, SimFs, replayHistory } from '@cohort/store';
import { addOp, makeCommit, readHistory } from '@cohort/store/testing';
import { DOC, openRaw, openSim } from './utils/simStore.ts';

const JOURNAL = `${DOC}.journal`;

/** Ten acknowledged appends, each its own write; the process then dies (nothing checkpointed). */
async function tenAppends(sim: SimFs): Promise<void> {
  const { store } = await openSim(sim, { checkpointEvery: 1000 });
  let book = store.book;
  for (let i = 0; i < 10; i += 1) {
    const r = await store.append(makeCommit(book, [addOp(`acknowledged ${i}`)]).commit);
    if (!r.ok) throw new Error(r.error.message);
    book = r.book;
  }
  sim.crash({ mode: 'process' });
}

/** The journal's lines with their byte offsets. */
function lines(bytes: Uint8Array): { text: string; offset: number; lineNo: number }[] {
  const out: { text: string; offset: number; lineNo: number }[] = [];
  let offset = 0;
  for (const [i, text] of new TextDecoder().decode(bytes).split('\n').slice(0, -1).entries()) {
    out.push({ text, offset, lineNo: i + 1 });
    offset += Buffer.byteLength(text) + 1;
  }
  return out;
}

/** The journal with one character flipped inside each of the last `k` records (not their headers). */
function flipLastRecords(sim: SimFs, k: number): { damaged: Uint8Array; firstWrite: { offset: number; lineNo: number } } {
  const bytes = sim.read(JOURNAL) ?? new Uint8Array(0);
  const all = lines(bytes);
  const records = all.filter((l) => !l.text.includes('"t":"group"'));
  const damaged = bytes.slice();
  for (const r of records.slice(-k)) {
    const at = r.offset + r.text.indexOf('acknowledged') + 2;
    damaged[at] = (damaged[at] ?? 0) ^ 0x01;
  }
  // the write a damaged record belongs to starts at the header line just before it
  const first = records[records.length - k] ?? { lineNo: 1 };
  const header = all[first.lineNo - 2] ?? { offset: 0, lineNo: 1 };
  return { damaged, firstWrite: { offset: header.offset, lineNo: header.lineNo } };
}

describe('FileStore damaged journals', () => {
  it('damaged journal - damage inside the last write alone is a torn write: cut with one notice, the nine before it kept', async () => {
    const sim = new SimFs();
    await tenAppends(sim);
    const { damaged, firstWrite } = flipLastRecords(sim, 1);
    sim.write(JOURNAL, damaged);
    const { store, notices } = await openSim(sim);
    expect(store.book.size).toBe(9);
    expect(notices.filter((n) => n.type === 'store.torn_tail_cut')).toEqual([
      expect.objectContaining({ file: JOURNAL, offset: firstWrite.offset }),
    ]);
    await store.close();
  });

  it('damaged journal - damage in several of the last writes is corruption: the open stops, names file, line and byte, and writes nothing', async () => {
    for (const k of [2, 3, 9]) {
      const sim = new SimFs();
      await tenAppends(sim);
      const { damaged, firstWrite } = flipLastRecords(sim, k);
      sim.write(JOURNAL, damaged);
      // (the dead process's lock is taken over and released: the lock is no data)
      const files = (): (string | undefined)[][] =>
        sim
          .list('/db')
          .filter((n) => !n.endsWith('.lock'))
          .map((n) => [n, sim.readText(`/db/${n}`)]);
      const before = files();
      const opened = await openRaw(sim);
      expect(opened.ok).toBe(false);
      if (opened.ok) continue;
      expect(opened.error).toMatchObject({
        code: 'corrupt_journal',
        file: JOURNAL,
        position: { offset: firstWrite.offset, line: firstWrite.lineNo },
      });
      expect(files()).toEqual(before);
    }
  });

  it('damaged journal - a store that an earlier writer of this format left (a checkpoint, a lease, a group of three commits past it) opens as it was', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cohort-fixture-'));
    try {
      await cp(join(import.meta.dirname, 'fixtures', 'journal-v2'), dir, { recursive: true });
      const opened = await FileStore.open(join(dir, 'skillbook.json'), { idleCheckpointMs: 0 });
      expect(opened.ok).toBe(true);
      if (!opened.ok) return;
      const { store, notices } = opened;
      expect(notices).toEqual([]);
      expect([store.book.revision, store.book.size, store.book.get('context-00001')?.helpful_count]).toEqual([7, 6, 1]);
      expect(store.book.nextId).toBeGreaterThanOrEqual(14);
      const replayed = replayHistory(await readHistory(store));
      expect(replayed.ok && [...replayed.book.skills()].map((k) => k.issue).sort()).toEqual(
        [...store.book.skills()].map((k) => k.issue).sort(),
      );
      expect([...store.book.skills()].map((k) => k.issue)).toContain('grouped b');
      const next = await store.append(makeCommit(store.book, [addOp('written now')]).commit);
      expect(next.ok).toBe(true);
      await store.close();
      const again = await FileStore.open(join(dir, 'skillbook.json'), { idleCheckpointMs: 0 });
      expect(again.ok && again.store.book.size).toBe(7);
      if (again.ok) await again.store.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
