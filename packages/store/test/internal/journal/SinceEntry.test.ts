import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { SimFs } from '@cohort/store';
import type { FileStore } from '@cohort/store';
import { addOp, makeCommit } from '@cohort/store/testing';
import type { RawOp } from '@cohort/store/testing';
import { chainDigest, utf8 } from '../../../src/internal/disk/digest.ts';
import { blocksOf } from '../../../src/internal/journal/JournalLine.ts';
import { encodeLine } from '../../../src/internal/journal/lineCodec.ts';
import type { CommitLine, CommitLineV1 } from '../../../src/internal/journal/JournalLine.ts';
import { readDisk } from '../../../src/internal/disk/readDisk.ts';
import { JournalSinceEntry } from '../../../src/internal/journal/SinceEntry.ts';
import { storePaths } from '../../../src/internal/disk/StorePaths.ts';
import { DOC, openSim } from '../../utils/simStore.ts';

async function commit(store: FileStore, operations: readonly RawOp[]): Promise<void> {
  const r = await store.append(makeCommit(store.book, operations).commit);
  if (!r.ok) throw new Error(r.error.message);
}

describe('commits past the document, kept by their place in the journal', () => {
  it('since - a line read back from its place is the line the store wrote, non-ASCII text and all', async () => {
    const sim = new SimFs();
    const { store } = await openSim(sim, { checkpointEvery: 1000 });
    const written: CommitLine[] = [];
    await commit(store, [addOp('dates')]);
    await commit(store, [{ type: 'ADD', section: 'context', issue: 'ünïcode ✓ 😀', insight: 'kept' }]);
    await commit(store, [{ type: 'TAG', skill_id: 'context-00001', metadata: { delta: 1 } }]);
    // the process dies: the journal holds three commits past the document
    sim.crash({ mode: 'process' });
    const journal = new TextDecoder().decode(sim.read(`${DOC}.journal`) ?? new Uint8Array(0));
    for (const text of journal.split('\n').filter((l) => l.includes('"t":"commit"'))) written.push(JSON.parse(text) as CommitLine);
    const read = await readDisk(sim.mount(), storePaths(DOC), { trustSnapshot: true });
    if (!read.ok || read.value.kind !== 'tracked') throw new Error('not a tracked store');
    const since = read.value.since;
    expect(since.map((s) => s.rev)).toEqual(written.map((l) => l.rev));
    expect(since.map((s) => s.line.rev)).toEqual(since.map((s) => s.rev));
    // each line decodes to exactly what was written (the checksum is not part of a line)
    expect(since.map((s) => ({ ...s.line, sum: '' }))).toEqual(written.map((l) => ({ ...l, sum: '' })));
    const second = since[1]?.line;
    expect(second && blocksOf(second)[0]?.ops[0]?.issue).toBe('ünïcode ✓ 😀');
  });

  it('since - an entry decodes only the bytes of its own line', () => {
    const line = (rev: number): CommitLineV1 => ({
      v: 1,
      t: 'commit',
      rev,
      prev: `p${rev}`,
      writer: 'w',
      session: 's',
      path: ['s'],
      ops: [],
      at: rev,
    });
    const first = encodeLine(line(1));
    const bytes = utf8(`${first}${encodeLine(line(2))}`);
    const start = utf8(first).length;
    const entry = new JournalSinceEntry(2, 'chain', bytes, start, bytes.length - 1);
    expect(entry.line).toEqual(line(2));
    expect(() => new JournalSinceEntry(1, 'chain', bytes, 0, start).line).toThrow(/no longer decodes/);
  });
});

describe('the hash chain', () => {
  it("chain - each link is the first 32 hex digits of the sha256 of the previous link, a newline and the line's body", () => {
    // the format on disk: changing it would refuse every journal written before
    expect(chainDigest('0'.repeat(32), '{"v":1}')).toBe(
      createHash('sha256')
        .update(`${'0'.repeat(32)}\n{"v":1}`)
        .digest('hex')
        .slice(0, 32),
    );
    expect(chainDigest('abc', 'ünïcode')).toBe(createHash('sha256').update('abc\nünïcode', 'utf8').digest('hex').slice(0, 32));
  });
});
