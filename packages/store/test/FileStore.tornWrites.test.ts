import { describe, expect, it } from 'vitest';
import { SimFs } from '@cohort/store';
import { addOp, makeCommit } from '@cohort/store/testing';
import { DOC, expectNextMergeDurable, openSim } from './utils/simStore.ts';

const JOURNAL = `${DOC}.journal`;

/** Opens a store, acknowledges one merge, and returns the journal's length and the second commit's line length. */
async function prepare(sim: SimFs) {
  const { store } = await openSim(sim);
  const first = await store.append(makeCommit(store.book, [addOp('acknowledged')], { sessionId: 'first' }).commit);
  if (!first.ok) throw new Error(first.error.message);
  const second = makeCommit(
    first.book,
    [addOp('torn'), { type: 'TAG', section: 'context', skill_id: 'context-00001', metadata: { delta: 1 } }],
    { sessionId: 'second' },
  );
  return { store, first, second, before: sim.read(JOURNAL)?.length ?? 0 };
}

describe('FileStore torn writes', () => {
  it('torn writes - a power loss at every byte of the last journal line keeps every acknowledged merge and cuts the tail with a notice', async () => {
    // measure the second line once
    const probe = new SimFs({ seed: 1 });
    const p = await prepare(probe);
    const acked = await p.store.append(p.second.commit);
    expect(acked.ok).toBe(true);
    const lineLength = (probe.read(JOURNAL)?.length ?? 0) - p.before;
    expect(lineLength).toBeGreaterThan(100);

    for (let kept = 0; kept <= lineLength; kept += 1) {
      const sim = new SimFs({ seed: kept });
      const { store, first, second, before } = await prepare(sim);
      sim.crashOn((op) => op.kind === 'sync' && op.path === JOURNAL, {
        tear: { bytes: (path, n) => (path === JOURNAL ? kept : n), dirOps: (_, n) => n },
      });
      const lost = await store.append(second.commit);
      expect(lost.ok).toBe(false);

      const { store: reopened, notices } = await openSim(sim);
      const torn = notices.filter((n) => n.type === 'store.torn_tail_cut');
      if (kept === lineLength) {
        // the whole line reached the disk: an unacknowledged merge may survive, whole
        expect(torn).toHaveLength(0);
        expect(reopened.book.toJSON()).toBe(second.book.toJSON());
      } else {
        expect(reopened.book.toJSON()).toBe(first.book.toJSON());
        expect(sim.read(JOURNAL)?.length).toBe(before);
        if (kept === 0) expect(torn).toHaveLength(0);
        else {
          expect(torn).toHaveLength(1);
          expect(torn[0]).toMatchObject({ file: JOURNAL, offset: before, bytes: kept });
        }
      }
      // the store goes on: a new merge is durable after the cut
      await expectNextMergeDurable(sim, reopened, `after ${kept}`);
    }
  });

  it('torn writes - a bad checksum on the last line is cut as a torn tail', async () => {
    const sim = new SimFs();
    const { store, first, second } = await prepare(sim);
    await store.append(second.commit);
    await store.close();
    const bytes = sim.read(JOURNAL) ?? new Uint8Array(0);
    const flipped = bytes.slice();
    const at = flipped.length - 30;
    flipped[at] = (flipped[at] ?? 0) ^ 0x01;
    sim.write(JOURNAL, flipped);
    const { store: reopened, notices } = await openSim(sim);
    expect(notices.find((n) => n.type === 'store.torn_tail_cut')).toMatchObject({ reason: 'broken_group' });
    // the document already held the second merge (close checkpointed it), so nothing is lost either way
    expect(reopened.book.revision).toBeGreaterThanOrEqual(first.book.revision);
    await reopened.close();
  });

  it('torn writes - corruption before the last line stops the open, names file and line, and overwrites nothing', async () => {
    const sim = new SimFs();
    const { store, second } = await prepare(sim);
    await store.append(second.commit);
    const bytes = sim.read(JOURNAL) ?? new Uint8Array(0);
    const damaged = bytes.slice();
    damaged[10] = 0x7a;
    sim.write(JOURNAL, damaged);
    const snapshot = ['', '.journal', '.ledger', '.base'].map((s) => sim.readText(`${DOC}${s}`));
    const { FileStore } = await import('@cohort/store');
    const opened = await FileStore.open(DOC, { fs: sim.mount(), idleCheckpointMs: 0 });
    expect(opened.ok).toBe(false);
    if (opened.ok) return;
    expect(opened.error).toMatchObject({ code: 'corrupt_journal', file: JOURNAL, position: { line: 1, offset: 0 } });
    expect(['', '.journal', '.ledger', '.base'].map((s) => sim.readText(`${DOC}${s}`))).toEqual(snapshot);
  });
});
