import { describe, expect, it } from 'vitest';
import { SimFs, repairJournal } from '@cohort/store';
import { ManualClock, addOp, makeCommit } from '@cohort/store/testing';
import { DOC, openRaw, openSim } from './utils/simStore.ts';

const JOURNAL = `${DOC}.journal`;

/** `n` acknowledged appends past a checkpoint of `checkpointed` more; the process then dies. */
async function appends(sim: SimFs, n: number, checkpointed = 0): Promise<void> {
  const { store } = await openSim(sim, { checkpointEvery: 1000 });
  let book = store.book;
  for (let i = 0; i < checkpointed + n; i += 1) {
    const r = await store.append(makeCommit(book, [addOp(`skill ${i}`)], { sessionId: `s${i}` }).commit);
    if (!r.ok) throw new Error(r.error.message);
    book = r.book;
    if (i === checkpointed - 1) await store.checkpoint();
  }
  sim.crash({ mode: 'process' });
}

/** Flips a character of the record of `skill <i>`. */
function damage(sim: SimFs, i: number): void {
  const text = sim.readText(JOURNAL) ?? '';
  const at = Buffer.byteLength(text.slice(0, text.indexOf(`skill ${i}"`)));
  const bytes = sim.read(JOURNAL) ?? new Uint8Array(0);
  bytes[at] = (bytes[at] ?? 0) ^ 0x01;
  sim.write(JOURNAL, bytes);
}

function options(sim: SimFs, apply = false) {
  const mount = sim.mount();
  return { fs: mount, process: mount.process, clock: new ManualClock(), apply };
}

describe('repairJournal', () => {
  it('repair - without apply it says what would go (from the damaged write on) and writes nothing', async () => {
    const sim = new SimFs();
    await appends(sim, 6);
    damage(sim, 2);
    const before = sim.read(JOURNAL);
    const planned = await repairJournal(DOC, options(sim));
    expect(planned.ok).toBe(true);
    if (!planned.ok) return;
    expect(planned).toMatchObject({ applied: false, backup: null });
    expect(planned.repair).toMatchObject({ journal: JOURNAL, damage: 'corrupt', line: 5, lost: 3, movesLedger: false });
    // the damaged record no longer reads; the three whole writes after it do, and go with it
    expect(planned.repair?.records.map((r) => [r.kind, r.revision, r.sessionId])).toEqual([
      ['commit', 4, 's3'],
      ['commit', 5, 's4'],
      ['commit', 6, 's5'],
    ]);
    expect(sim.read(JOURNAL)).toEqual(before);
    expect(sim.list('/db').some((n) => n.includes('damaged'))).toBe(false);
  });

  it('repair - with apply it keeps the whole journal as a backup, cuts the damaged write and what follows, and the store opens', async () => {
    const sim = new SimFs();
    await appends(sim, 6);
    damage(sim, 2);
    const whole = sim.read(JOURNAL);
    expect((await openRaw(sim)).ok).toBe(false);
    const repaired = await repairJournal(DOC, options(sim, true));
    expect(repaired.ok && repaired.applied).toBe(true);
    if (!repaired.ok || !repaired.backup) throw new Error('not repaired');
    expect(sim.read(repaired.backup)).toEqual(whole);
    expect(sim.read(JOURNAL)?.length).toBe(repaired.repair?.offset);
    const { store } = await openSim(sim);
    expect([...store.book.skills()].map((k) => k.issue)).toEqual(['skill 0', 'skill 1']);
    const next = await store.append(makeCommit(store.book, [addOp('after the repair')]).commit);
    expect(next.ok).toBe(true);
    await store.close();
    expect((await repairJournal(DOC, options(sim))).ok && (await repairJournal(DOC, options(sim)))).toMatchObject({ repair: null });
  });

  it('repair - damage before the checkpoint the ledger names moves the ledger back: the document keeps its book, later appends survive a reopen', async () => {
    const sim = new SimFs();
    await appends(sim, 2, 4);
    damage(sim, 1);
    const repaired = await repairJournal(DOC, options(sim, true));
    expect(repaired.ok && repaired.repair).toMatchObject({ movesLedger: true, lost: 2 });
    const { store } = await openSim(sim);
    expect(store.book.size).toBe(4);
    const next = await store.append(makeCommit(store.book, [addOp('after the repair')]).commit);
    expect(next.ok).toBe(true);
    sim.crash({ mode: 'process' });
    const { store: again } = await openSim(sim);
    expect(again.book.size).toBe(5);
    await again.close();
  });

  it('repair - a whole journal needs none, and a live writer holding the lock refuses the cut', async () => {
    const sim = new SimFs();
    await appends(sim, 2);
    expect(await repairJournal(DOC, options(sim, true))).toMatchObject({ ok: true, repair: null, applied: false });
    damage(sim, 1);
    const clock = new ManualClock();
    sim.write(
      `${DOC}.lock`,
      JSON.stringify({ pid: 1, host: 'elsewhere', writerId: 'w-live', generation: 1, acquiredAt: clock.now(), leaseMs: 30_000 }),
    );
    const refused = await repairJournal(DOC, { fs: sim.mount(), clock, apply: true });
    expect(refused).toMatchObject({ ok: false, error: { code: 'locked' } });
  });
});
