import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LineSchema } from '../../../src/internal/journal/JournalLine.ts';
import { decodeLine, encodeLine } from '../../../src/internal/journal/lineCodec.ts';
import type { JournalLine } from '../../../src/internal/journal/JournalLine.ts';
import { scanJournal } from '../../../src/internal/journal/scanJournal.ts';
import { utf8 } from '../../../src/internal/disk/digest.ts';
import { join } from '../../utils/bytes.ts';

const line = {
  v: 2,
  t: 'commit',
  rev: 7,
  prev: 'abc',
  writer: 'w-1',
  session: 's1',
  path: ['root', 's1'],
  at: 12,
  blocks: [
    {
      session: 's1',
      path: ['root', 's1'],
      name: 'child',
      at: 11,
      ops: [
        { type: 'TAG', section: 'context', skill_id: 'context-00001', metadata: { delta: 1 }, at: '2026-01-01T00:00:00.000000+00:00' },
        {
          type: 'ADD',
          section: 'harness',
          issue: 'i',
          keywords: ['k'],
          insight: 'x',
          skill_id: 'harness-00002',
          insight_source: [{ trace_uid: 'a:b', source_system: 'a', trace_id: 'b', epoch: 1 }],
          at: 't',
        },
      ],
    },
  ],
};

const anything = fc.oneof(
  fc.string({ maxLength: 3 }),
  fc.integer({ min: -2, max: 2 }),
  fc.double(),
  fc.constant(null),
  fc.boolean(),
  fc.constant(2 ** 60),
  fc.array(fc.oneof(fc.string({ maxLength: 2 }), fc.integer()), { maxLength: 2 }),
  fc.dictionary(
    fc.constantFrom('delta', 'x', '__proto__', 'trace_uid', 'source_system', 'trace_id', 'epoch'),
    fc.oneof(fc.integer(), fc.string({ maxLength: 2 })),
  ),
  fc.constantFrom('commit', 'mark', 'lease', 'group', 'external', 'TAG', 'ADD', 'BOGUS', 1, 2),
);

/** A path into the line to replace: a top-level key, a block's key, an op's key, or a source's key. */
const where = fc.oneof(
  fc.constantFrom('v', 't', 'rev', 'prev', 'writer', 'session', 'path', 'blocks', 'at', 'extra').map((k) => [k]),
  fc.tuple(fc.constant('blocks'), fc.constant('0'), fc.constantFrom('session', 'path', 'name', 'at', 'ops', 'extra', '__proto__')),
  fc.tuple(
    fc.constant('blocks'),
    fc.constant('0'),
    fc.constant('ops'),
    fc.constantFrom('0', '1'),
    fc.constantFrom('type', 'section', 'skill_id', 'issue', 'keywords', 'insight', 'metadata', 'insight_source', 'reason', 'at', 'extra'),
  ),
  fc.tuple(
    fc.constant('blocks'),
    fc.constant('0'),
    fc.constant('ops'),
    fc.constant('1'),
    fc.constant('insight_source'),
    fc.constant('0'),
    fc.constantFrom('trace_uid', 'epoch', 'relation', 'extra'),
  ),
);

function replaced(path: readonly string[], value: unknown): unknown {
  const copy = JSON.parse(JSON.stringify(line)) as Record<string, unknown>;
  let node = copy;
  for (const key of path.slice(0, -1)) node = node[key] as Record<string, unknown>;
  node[path[path.length - 1] ?? ''] = value;
  return JSON.parse(JSON.stringify(copy));
}

describe('journal lines', () => {
  it('decodeLine - accepts a line exactly when the schema does, with what the schema returns (fast-check)', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(where, anything), { maxLength: 2 }), (changes) => {
        let json: unknown = line;
        for (const [path, value] of changes) json = replaced(path, value);
        const text = encodeLine(json as JournalLine).slice(0, -1);
        const decoded = decodeLine(text);
        const schema = LineSchema.safeParse(json);
        expect(decoded.ok).toBe(schema.success);
        if (decoded.ok && schema.success) expect(decoded.line).toEqual(schema.data);
      }),
      { numRuns: 1000 },
    );
  });

  it('scanJournal - decoding the journal whole gives the lines decoding each line gives (byte-order marks, non-ASCII, bad UTF-8)', () => {
    // first-format lines: each is a whole write on its own
    const v1 = {
      v: 1,
      t: 'commit',
      rev: 7,
      prev: 'abc',
      writer: 'w-1',
      session: 's1',
      path: ['s1'],
      ops: line.blocks[0]?.ops ?? [],
      at: 12,
    } as const;
    const a = encodeLine(v1 as unknown as JournalLine);
    const b = encodeLine({ ...v1, rev: 8, session: 'ünïcode ✓ 🚀' } as unknown as JournalLine);
    const bom = new Uint8Array([0xef, 0xbb, 0xbf]);
    const summary = (bytes: Uint8Array) => {
      const scan = scanJournal(bytes);
      return {
        entries: scan.entries.map((e) => [e.offset, e.lineNo, e.length, e.body, e.line.rev]),
        end: scan.end,
        tail: scan.tail,
        corruption: scan.corruption,
      };
    };
    // with a bad byte in the last line the journal is decoded line by line: the good lines read the same
    const valid = join(bom, utf8(a), utf8(b), bom, utf8(a), utf8('{"torn'));
    const invalid = join(valid.subarray(0, valid.length - 6), utf8('{"to'), new Uint8Array([0xff]), utf8('\n'));
    const whole = summary(valid);
    const byLine = summary(invalid);
    expect(whole.entries).toHaveLength(3);
    expect(byLine.entries).toEqual(whole.entries);
    expect(whole.tail?.reason).toBe('incomplete_line');
    expect(byLine.tail?.reason).toBe('invalid_line');
  });
});
