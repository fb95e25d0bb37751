import { describe, expect, it } from 'vitest';
import { Skillbook } from '@cohort/skillbook';
import { chainDigest, sha256Hex, utf8 } from '../src/internal/disk/digest.ts';
import { encodeLine, lineBody } from '../src/internal/journal/lineCodec.ts';
import type { CommitLineV1 } from '../src/internal/journal/JournalLine.ts';
import { scanJournal } from '../src/internal/journal/scanJournal.ts';
import { SimFs, inspectBook } from '@cohort/store';
import { addOp, makeCommit, readHistory } from '@cohort/store/testing';
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
    expect(JSON.parse(sim.readText(`${DOC}.ledger`) ?? '{}')).toMatchObject({ format: 'cohort-ledger/2', revision: 0, writerId: 'w-test' });
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

  it('open - a journal of the first format opens: its commits replay and read back as history, and new writes use the current format', async () => {
    const sim = new SimFs();
    const empty = Skillbook.empty().toJSON();
    const digest = sha256Hex(utf8(empty));
    const ops = (book: Skillbook, issue: string) => {
      const r = book.applyBatch({ operations: [{ type: 'ADD', section: 'context', issue, insight: 'x' }] }, { clock: { now: () => 0 } });
      if (!r.ok) throw new Error(r.error.message);
      return r;
    };
    const first = ops(Skillbook.empty(), 'old one');
    const second = ops(first.book, 'old two');
    const line1: CommitLineV1 = {
      v: 1,
      t: 'commit',
      rev: 1,
      prev: digest,
      writer: 'old',
      session: 's1',
      path: ['s1'],
      ops: first.applied,
      at: 1,
    };
    const chain1 = chainDigest(digest, lineBody(line1));
    const line2: CommitLineV1 = {
      v: 1,
      t: 'commit',
      rev: 2,
      prev: chain1,
      writer: 'old',
      session: 's2',
      path: ['root', 's2'],
      ops: second.applied,
      at: 2,
    };
    sim.write(DOC, empty);
    sim.write(`${DOC}.base`, empty);
    sim.write(
      `${DOC}.ledger`,
      JSON.stringify({
        format: 'cohort-ledger/1',
        revision: 0,
        contentDigest: digest,
        chain: digest,
        writerId: 'old',
        journalOffset: 0,
        lineage: null,
        at: 0,
      }),
    );
    sim.write(`${DOC}.journal`, encodeLine(line1) + encodeLine(line2));
    const { store } = await openSim(sim);
    expect([...store.book.skills()].map((s) => s.issue)).toEqual(['old one', 'old two']);
    const commits = await readHistory(store);
    expect(commits.map((c) => [c.sessionId, c.entries.map((b) => b.path)])).toEqual([
      ['s1', [['s1']]],
      ['s2', [['root', 's2']]],
    ]);
    const r = await store.append(makeCommit(store.book, [addOp('new')]).commit);
    expect(r.ok).toBe(true);
    await store.close();
    const scan = scanJournal(sim.read(`${DOC}.journal`) ?? new Uint8Array(0));
    expect(scan.entries.map((e) => [e.line.v, e.line.t])).toEqual([
      [1, 'commit'],
      [1, 'commit'],
      [2, 'commit'],
    ]);
    const { store: again } = await openSim(sim);
    expect([...again.book.skills()].map((s) => s.issue)).toEqual(['old one', 'old two', 'new']);
    await again.close();
    expect((await inspectBook(DOC, { fs: sim.mount() })).ok).toBe(true);
  });
});
