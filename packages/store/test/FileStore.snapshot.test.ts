import { describe, expect, it } from 'vitest';
import { Skillbook } from '@cohort/skillbook';
import { SimFs } from '@cohort/store';
import type { FileStore } from '@cohort/store';
import { addOp, makeCommit } from '@cohort/store/testing';
import type { RawOp } from '@cohort/store/testing';
import { sha256Hex, utf8 } from '../src/internal/disk/digest.ts';
import { readDisk } from '../src/internal/disk/readDisk.ts';
import type { BaseSource } from '../src/internal/disk/readDisk.ts';
import { storePaths } from '../src/internal/disk/StorePaths.ts';
import { describeBook } from '../../skillbook/test/utils/describeBook.ts';
import { DOC, collect, openSim } from './utils/simStore.ts';

const SNAPSHOT = `${DOC}.snapshot`;
const paths = storePaths(DOC);

async function commit(store: FileStore, operations: readonly RawOp[]): Promise<void> {
  const r = await store.append(makeCommit(store.book, operations).commit);
  if (!r.ok) throw new Error(r.error.message);
}

/**
 * A store whose document was checkpointed with a varied book (legacy section, sources,
 * updates, tags, removes), and whose journal holds commits past it (the process died).
 */
async function storeWithJournal(sim: SimFs): Promise<void> {
  const { store } = await openSim(sim, { checkpointEvery: 1000 });
  await commit(store, [addOp('dates'), addOp('retries', 'harness'), { type: 'ADD', section: 'Legacy notes', issue: 'old ways' }]);
  await commit(store, [
    { type: 'ADD', section: 'context', issue: 'ünïcode ✓', insight: 'kept', insight_source: [{ trace_uid: 'sys:a', epoch: 2 }] },
  ]);
  await commit(store, [
    { type: 'UPDATE', skill_id: 'context-00001', insight: 'use ISO 8601' },
    { type: 'TAG', skill_id: 'harness-00002', metadata: { delta: -1 } },
  ]);
  await store.close();
  const { store: again } = await openSim(sim, { checkpointEvery: 1000 });
  await commit(again, [{ type: 'REMOVE', skill_id: 'context-00003', reason: 'stale' }, addOp('past the document')]);
  await commit(again, [{ type: 'TAG', skill_id: 'context-00001', metadata: { delta: 1 } }]);
  // the process dies: no checkpoint, the journal holds two commits past the document
  sim.crash({ mode: 'process' });
}

/** Reads the files the fast way (`trustSnapshot`) and the slow way; both must give the same books. */
async function readBoth(sim: SimFs): Promise<{ fast: BaseSource; head: Skillbook }> {
  const fast = await readDisk(sim.mount(), paths, { trustSnapshot: true });
  const slow = await readDisk(sim.mount(), paths);
  if (!fast.ok || !slow.ok) throw new Error('the files do not read');
  if (fast.value.kind !== 'tracked' || slow.value.kind !== 'tracked') throw new Error('not a tracked store');
  expect(slow.value.baseSource).toBe('not_tried');
  expect(describeBook(fast.value.baseBook)).toEqual(describeBook(slow.value.baseBook));
  expect(describeBook(fast.value.head)).toEqual(describeBook(slow.value.head));
  expect(fast.value.chain).toBe(slow.value.chain);
  expect(fast.value.since.map((s) => s.chain)).toEqual(slow.value.since.map((s) => s.chain));
  return { fast: fast.value.baseSource, head: slow.value.head };
}

/** Replaces the snapshot's bytes in place, as damage would. */
function damage(sim: SimFs, change: (bytes: Uint8Array) => Uint8Array): void {
  sim.write(SNAPSHOT, change(sim.read(SNAPSHOT) ?? new Uint8Array(0)));
}

describe('FileStore snapshots', () => {
  it("checkpoint - writes the book's snapshot beside the document, tied to the ledger's revision and the document's digest", async () => {
    const sim = new SimFs();
    await storeWithJournal(sim);
    const ledger = JSON.parse(sim.readText(`${DOC}.ledger`) ?? '{}') as { revision: number; contentDigest: string };
    const text = sim.readText(SNAPSHOT) ?? '';
    const [head = '', body = ''] = [text.slice(0, text.indexOf('\n')), text.slice(text.indexOf('\n') + 1)];
    expect(JSON.parse(head)).toEqual({
      format: 'cohort-snapshot/1',
      revision: ledger.revision,
      contentDigest: ledger.contentDigest,
      bodyDigest: sha256Hex(utf8(body)),
    });
    expect(ledger.contentDigest).toBe(sha256Hex(sim.read(DOC) ?? new Uint8Array(0)));
  });

  it('open - reads the snapshot instead of the document, and gets exactly the book reading the document gives', async () => {
    const sim = new SimFs();
    await storeWithJournal(sim);
    const { fast, head } = await readBoth(sim);
    expect(fast).toBe('snapshot');
    expect(head.get('context-00003')?.active).toBe(false);
    const { store } = await openSim(sim);
    expect(describeBook(store.book)).toEqual(describeBook(head));
    await store.close();
  });

  const refusals: readonly [string, BaseSource, (sim: SimFs) => void | Promise<void>][] = [
    ['missing', 'missing', (sim) => sim.mount().unlink(SNAPSHOT)],
    ['truncated (a torn write)', 'damaged', (sim) => damage(sim, (b) => b.subarray(0, Math.floor(b.length / 2)))],
    ['empty', 'damaged', (sim) => damage(sim, () => new Uint8Array(0))],
    ['damaged in its body', 'damaged', (sim) => damage(sim, (b) => b.map((x, i) => (i === b.length - 20 ? x ^ 1 : x)))],
    ['without its header', 'damaged', (sim) => damage(sim, (b) => b.subarray(b.indexOf(0x0a) + 1))],
    [
      'whole but not a snapshot',
      'unreadable',
      (sim) => {
        const ledger = JSON.parse(sim.readText(`${DOC}.ledger`) ?? '{}') as { revision: number; contentDigest: string };
        const body = utf8('{"format":"cohort-skillbook-snapshot/1","nextId":0,"sections":[],"similarity":"{}","skills":[["x"]]}');
        const header = {
          format: 'cohort-snapshot/1',
          revision: ledger.revision,
          contentDigest: ledger.contentDigest,
          bodyDigest: sha256Hex(body),
        };
        sim.write(SNAPSHOT, `${JSON.stringify(header)}\n${new TextDecoder().decode(body)}`);
      },
    ],
  ];

  for (const [what, reason, spoil] of refusals) {
    it(`open - a snapshot ${what} is ignored: the document is read instead, and the book is the same`, async () => {
      const sim = new SimFs();
      await storeWithJournal(sim);
      const { head: expected } = await readBoth(sim);
      await spoil(sim);
      const { fast, head } = await readBoth(sim);
      expect(fast).toBe(reason);
      expect(describeBook(head)).toEqual(describeBook(expected));
      const { store, notices } = await openSim(sim);
      // the crash left its lock behind: taking it over is the only notice
      expect(notices.map((n) => n.type)).toEqual(['store.lock_taken_over']);
      expect(describeBook(store.book)).toEqual(describeBook(expected));
      // the next checkpoint writes a good one again
      await store.close();
      expect((await readBoth(sim)).fast).toBe('snapshot');
    });
  }

  it('open - a snapshot of an older checkpoint is ignored', async () => {
    const sim = new SimFs();
    await storeWithJournal(sim);
    const older = sim.read(SNAPSHOT) ?? new Uint8Array(0);
    const { store } = await openSim(sim);
    await store.close(); // a checkpoint: the document and the snapshot move on
    const { head: expected } = await readBoth(sim);
    sim.write(SNAPSHOT, older);
    const { fast, head } = await readBoth(sim);
    expect(fast).toBe('stale');
    expect(describeBook(head)).toEqual(describeBook(expected));
  });

  it('open - a checkpoint that crashed after its commit point is finished from the document, not the older snapshot', async () => {
    const sim = new SimFs();
    await storeWithJournal(sim);
    const { store } = await openSim(sim);
    const expected = store.book;
    sim.crashOn((op) => op.kind === 'rename' && op.path === DOC);
    await store.close().catch(() => undefined);
    const { store: again } = await openSim(sim);
    expect(describeBook(again.book)).toEqual(describeBook(Skillbook.fromJSON(expected.toJSON(), { revision: expected.revision })));
    expect((await readBoth(sim)).fast).toBe('stale');
    await commit(again, [addOp('after the crash')]);
    await again.close();
    expect((await readBoth(sim)).fast).toBe('snapshot');
  });

  it('open - a document another program rewrote is reconciled as without a snapshot; the adopted document gets none', async () => {
    const outcomes: unknown[] = [];
    for (const keepSnapshot of [true, false]) {
      const sim = new SimFs();
      await storeWithJournal(sim);
      if (!keepSnapshot) await sim.mount().unlink(SNAPSHOT);
      // ACE loads the document, adds a skill and saves the whole file
      const ace = Skillbook.fromJSON(sim.readText(DOC) ?? '').applyBatch(
        { operations: [{ type: 'ADD', section: 'harness', issue: 'learned by ACE', skill_id: 'harness-09999' }] },
        { clock: { now: () => Date.UTC(2026, 1, 1) } },
      );
      if (!ace.ok) throw new Error(ace.error.message);
      sim.write(DOC, ace.book.toJSON());
      const { store } = await openSim(sim);
      const seen = collect(store);
      outcomes.push([describeBook(store.book), seen.map((n) => n.type)]);
      expect(store.book.get('harness-09999')?.issue).toBe('learned by ACE');
      await store.close();
    }
    expect(outcomes[0]).toEqual(outcomes[1]);
  });

  it('open - an adopted document (taken as another program wrote it) has no snapshot until the store writes one', async () => {
    const sim = new SimFs();
    const ace = makeCommit(Skillbook.empty(), [addOp('from ACE')]).book.toJSON();
    sim.write(DOC, ace);
    const { store } = await openSim(sim);
    expect(sim.read(SNAPSHOT)).toBeUndefined();
    await commit(store, [addOp('ours')]);
    await store.close();
    expect((await readBoth(sim)).fast).toBe('snapshot');
  });
});
