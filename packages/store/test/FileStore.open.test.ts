import { describe, expect, it } from 'vitest';
import { Skillbook } from '@cohort/skillbook';
import { SimFs } from '@cohort/store';
import { addOp, makeCommit } from '@cohort/store/testing';
import { DOC, openRaw, openSim } from './utils/simStore.ts';

const SIDE_FILES = ['', '.journal', '.ledger', '.base', '.conflicts'];

function snapshot(sim: SimFs): (string | undefined)[] {
  return SIDE_FILES.map((s) => sim.readText(`${DOC}${s}`));
}

describe('FileStore.open', () => {
  it('open - a missing document is created as an ACE document with its journal, ledger and base', async () => {
    const sim = new SimFs();
    const { store, notices } = await openSim(sim);
    expect(notices.map((n) => n.type)).toEqual(['store.saved']);
    const text = sim.readText(DOC) ?? '';
    expect(Skillbook.fromJSON(text).toJSON()).toBe(text);
    expect(sim.readText(`${DOC}.base`)).toBe(text);
    expect(sim.readText(`${DOC}.journal`)).toBe('');
    expect(JSON.parse(sim.readText(`${DOC}.ledger`) ?? '{}')).toMatchObject({ format: 'cohort-ledger/1', revision: 0, writerId: 'w-test' });
    await store.close();
  });

  it('open - an ACE document without side files is taken up at revision 0, its bytes untouched', async () => {
    const sim = new SimFs();
    const ace = makeCommit(Skillbook.empty(), [addOp('from ACE')]).book.toJSON();
    sim.write(DOC, ace);
    const { store } = await openSim(sim);
    expect(store.book.get('context-00001')?.issue).toBe('from ACE');
    expect(store.book.revision).toBe(0);
    expect(sim.readText(DOC)).toBe(ace);
    await store.close();
    expect(sim.readText(DOC)).toBe(ace);
  });

  it('open - a reopened store replays the journal past the document', async () => {
    const sim = new SimFs();
    const { store } = await openSim(sim, { checkpointEvery: 1000 });
    let book = store.book;
    for (let i = 0; i < 3; i += 1) {
      const r = await store.append(makeCommit(book, [addOp(`journaled ${i}`)]).commit);
      if (r.ok) book = r.book;
    }
    // the process dies: no checkpoint, the document still holds revision 0
    sim.crash({ mode: 'process' });
    expect(Skillbook.fromJSON(sim.readText(DOC) ?? '').size).toBe(0);
    const { store: again } = await openSim(sim);
    expect(again.book.toJSON()).toBe(book.toJSON());
    expect(again.book.revision).toBe(3);
    await again.close();
  });

  it('open - an unreadable document stops the open, names file and position, and overwrites nothing', async () => {
    const sim = new SimFs();
    const { store } = await openSim(sim);
    await store.append(makeCommit(store.book, [addOp('kept')]).commit);
    sim.crash({ mode: 'process' });
    sim.write(DOC, '{\n  "schema_version": "2",\n  "skills": {,\n}');
    const before = snapshot(sim);
    const opened = await openRaw(sim);
    expect(opened.ok).toBe(false);
    if (opened.ok) return;
    expect(opened.error.code).toBe('unreadable_document');
    expect(opened.error.file).toBe(DOC);
    expect(opened.error.position?.line).toBe(3);
    expect(snapshot(sim)).toEqual(before);
  });

  it('open - a document of another schema version stops the open with unsupported_schema_version', async () => {
    const sim = new SimFs();
    sim.write(DOC, JSON.stringify({ schema_version: '3', skills: {}, sections: {}, next_id: 0, similarity_decisions: {} }, null, 2));
    const before = snapshot(sim);
    const opened = await openRaw(sim);
    expect(opened.ok ? null : opened.error.code).toBe('unsupported_schema_version');
    expect(snapshot(sim)).toEqual(before);
  });

  it('open - a damaged ledger or a journal without a ledger stops the open naming the ledger', async () => {
    const sim = new SimFs();
    const { store } = await openSim(sim);
    await store.close();
    sim.write(`${DOC}.ledger`, '{"format":"cohort-ledger/1"');
    const damaged = await openRaw(sim);
    expect(damaged.ok ? null : damaged.error).toMatchObject({ code: 'unreadable_ledger', file: `${DOC}.ledger` });
    sim.write(`${DOC}.journal`, 'x\n');
    await sim.mount().unlink(`${DOC}.ledger`);
    const orphan = await openRaw(sim);
    expect(orphan.ok ? null : orphan.error.code).toBe('unreadable_ledger');
  });

  it('open - a checkpoint interrupted after its commit point is finished on open', async () => {
    const sim = new SimFs();
    const { store } = await openSim(sim, { checkpointEvery: 1 });
    // the ledger is in place; the power goes before the document is renamed
    sim.crashOn((op) => op.kind === 'rename' && op.path === `${DOC}.base`, { tear: { bytes: (_, n) => n, dirOps: (_, n) => n } });
    const made = makeCommit(store.book, [addOp('checkpointed')]);
    expect((await store.append(made.commit)).ok).toBe(true);
    // the threshold checkpoint runs after the acknowledgement; it crashes
    expect((await store.checkpoint()).ok).toBe(false);
    const { store: again, notices } = await openSim(sim);
    expect(notices.map((n) => n.type)).toContain('store.saved');
    expect(again.book.toJSON()).toBe(made.book.toJSON());
    expect(sim.readText(DOC)).toBe(made.book.toJSON());
    await again.close();
  });
});
