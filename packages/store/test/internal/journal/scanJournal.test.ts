import { describe, expect, it } from 'vitest';
import { utf8 } from '../../../src/internal/disk/digest.ts';
import { join } from '../../utils/bytes.ts';
import { encodeLine } from '../../../src/internal/journal/lineCodec.ts';
import type { LeaseLine, RecordLine } from '../../../src/internal/journal/JournalLine.ts';
import { scanJournal } from '../../../src/internal/journal/scanJournal.ts';
import { encodeGroup } from '../../../src/internal/worker/StoreContext.ts';

const lease = (rev: number): LeaseLine => ({
  v: 2,
  t: 'lease',
  rev,
  prev: `p${rev}`,
  writer: 'w',
  from: rev * 10 + 1,
  to: rev * 10 + 11,
  at: rev,
});

/** Three writes of two records each, and where each write starts. */
function journal(): { bytes: Uint8Array; starts: number[] } {
  const writes = [
    [lease(1), lease(2)],
    [lease(3), lease(4)],
    [lease(5), lease(6)],
  ].map((w) => encodeGroup(w as RecordLine[]));
  const starts: number[] = [];
  let offset = 0;
  for (const w of writes) {
    starts.push(offset);
    offset += w.length;
  }
  return { bytes: join(...writes), starts };
}

/** `bytes` with the byte at `at` changed. */
function damaged(bytes: Uint8Array, at: number): Uint8Array {
  const out = bytes.slice();
  out[at] = (out[at] ?? 0) ^ 0x04;
  return out;
}

describe('scanJournal', () => {
  it('scanJournal - whole writes are read in order; their records only, not the group headers', () => {
    const { bytes } = journal();
    const scan = scanJournal(bytes);
    expect(scan.entries.map((e) => e.line.rev)).toEqual([1, 2, 3, 4, 5, 6]);
    expect([scan.lines, scan.end, scan.tail, scan.corruption]).toEqual([9, bytes.length, null, null]);
  });

  it('scanJournal - damage anywhere inside the last write (its first record, a last record still whole) is a torn write, cut from its header', () => {
    const { bytes, starts } = journal();
    const last = starts[2] ?? 0;
    const firstRecord = last + bytes.subarray(last).indexOf(0x0a) + 1;
    for (const at of [last + 3, firstRecord + 5, bytes.length - 30]) {
      const scan = scanJournal(damaged(bytes, at));
      expect(scan.corruption).toBeNull();
      expect(scan.tail).toMatchObject({ offset: last, lineNo: 7, bytes: bytes.length - last });
      expect(scan.entries.map((e) => e.line.rev)).toEqual([1, 2, 3, 4]);
      expect(scan.end).toBe(last);
    }
  });

  it('scanJournal - a last write cut short (its header announces more than is there) is a torn write', () => {
    const { bytes, starts } = journal();
    for (const keep of [(starts[2] ?? 0) + 5, bytes.length - 1]) {
      const scan = scanJournal(bytes.subarray(0, keep));
      expect(scan.tail?.offset).toBe(starts[2]);
      expect(scan.corruption).toBeNull();
    }
  });

  it('scanJournal - damage inside an earlier write is corruption, named by the line and byte where that write starts', () => {
    const { bytes, starts } = journal();
    const scan = scanJournal(damaged(bytes, (starts[1] ?? 0) + 40));
    expect(scan.tail).toBeNull();
    expect(scan.corruption).toMatchObject({ offset: starts[1], lineNo: 4 });
    const inRecord = scanJournal(damaged(bytes, (starts[2] ?? 0) - 20));
    expect(inRecord.corruption).toMatchObject({ offset: starts[1], lineNo: 4, reason: 'broken_group' });
  });

  it('scanJournal - damage in the last two writes is corruption (only the last write can be torn), named where the first of them starts', () => {
    const { bytes, starts } = journal();
    const scan = scanJournal(damaged(damaged(bytes, (starts[2] ?? 0) - 20), bytes.length - 20));
    expect(scan.tail).toBeNull();
    expect(scan.corruption).toMatchObject({ offset: starts[1], lineNo: 4 });
  });

  it('scanJournal - lines of the first format are whole writes of their own, before and between groups', () => {
    const v1 = (rev: number): string =>
      encodeLine({ v: 1, t: 'commit', rev, prev: 'p', writer: 'w', session: 's', path: ['s'], ops: [], at: rev });
    const bytes = join(utf8(v1(1)), utf8(v1(2)), encodeGroup([lease(2)]), utf8(v1(3)));
    const scan = scanJournal(bytes);
    expect(scan.entries.map((e) => [e.line.t, e.line.rev])).toEqual([
      ['commit', 1],
      ['commit', 2],
      ['lease', 2],
      ['commit', 3],
    ]);
    expect(scan.tail).toBeNull();
    expect(scanJournal(join(bytes, utf8('{"v":1,"t":"com'))).tail?.offset).toBe(bytes.length);
  });

  it('scanJournal - a record of the new format outside any group is not a whole write', () => {
    const bytes = join(encodeGroup([lease(1)]), utf8(encodeLine(lease(2))));
    const scan = scanJournal(bytes);
    expect(scan.entries.map((e) => e.line.rev)).toEqual([1]);
    expect(scan.tail?.reason).toBe('invalid_line');
  });
});
