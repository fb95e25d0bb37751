import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RawBatchSchema, RawOperationSchema, parseBatch, parseOperation } from '../src/index.ts';
import type { ParsedOperation } from '../src/index.ts';
import { parseOperationFields } from '../src/parseOperation.ts';
import { OPERATION_FIELDS, rawOperation, withEveryField } from './utils/arbitraries.ts';

function parsed(raw: unknown): ParsedOperation {
  const r = parseOperation(raw, 3);
  if (!r.ok) throw new Error(r.error.message);
  return r.op;
}

describe('parseOperation - ACE from_json rules', () => {
  it('the type is upper-cased; an unknown type is refused with the upper-cased name', () => {
    expect(parsed({ type: 'add' }).type).toBe('ADD');
    expect(parsed({ type: 'Tag' }).type).toBe('TAG');
    expect(parseOperation({ type: 'bogus' }, 3)).toEqual({
      ok: false,
      error: { code: 'unknown_operation_type', message: 'Invalid operation type: BOGUS', opIndex: 3 },
    });
    expect(parseOperation({ type: 'add ' }).ok).toBe(false);
    expect(parseOperation({ type: null })).toMatchObject({ ok: false, error: { message: 'Invalid operation type: NONE' } });
  });

  it('an operation without a type, or that is not an object, is refused', () => {
    expect(parseOperation({ section: 'context' })).toMatchObject({ ok: false, error: { code: 'invalid_operation' } });
    expect(parseOperation(['ADD'])).toMatchObject({ ok: false, error: { code: 'invalid_operation' } });
  });

  it('text is str()-ed the Python way and trimmed of Python white space; blank is absent', () => {
    const op = parsed({ type: 'ADD', section: 42, issue: 2.5, insight: [1, 'a', null, true, { k: 2.5 }], reason: '\x1c\u3000 ' });
    expect(op.section).toBe('42');
    expect(op.issue).toBe('2.5');
    expect(op.insight).toBe("[1, 'a', None, True, {'k': 2.5}]");
    expect(op.reason).toBeNull();
    expect(parsed({ type: 'ADD', issue: '\ufeffx\ufeff' }).issue).toBe('\ufeffx\ufeff');
    expect(parsed({ type: 'ADD', issue: 1e-7, insight: false }).issue).toBe('1e-07');
    expect(parsed({ type: 'ADD', insight: false }).insight).toBe('False');
  });

  it('a missing section is empty text, a null section is the text None', () => {
    expect(parsed({ type: 'ADD' }).section).toBe('');
    expect(parsed({ type: 'ADD', section: null }).section).toBe('None');
  });

  it('skill_id is str()-ed; null means none', () => {
    expect(parsed({ type: 'TAG', skill_id: 12 }).skillId).toBe('12');
    expect(parsed({ type: 'TAG', skill_id: null }).skillId).toBeNull();
    expect(parsed({ type: 'TAG', skill_id: false }).skillId).toBe('False');
  });

  it('keywords are read only from a list, normalised, de-duplicated in order', () => {
    expect(parsed({ type: 'ADD', keywords: ['  Parse Dates ', 'parse\tdates', 'SQL', 7, '', null] }).keywords).toEqual([
      'parse_dates',
      'sql',
      '7',
    ]);
    expect(parsed({ type: 'ADD', keywords: 'sql' }).keywords).toEqual([]);
    expect(parsed({ type: 'ADD', keywords: { sql: 1 } }).keywords).toEqual([]);
    expect(parsed({ type: 'ADD', keywords: ['a\x1cb\x85c\u3000d'] }).keywords).toEqual(['a_b_c_d']);
  });

  it('metadata values go through int(): TAG takes the sign of delta, a missing delta is neutral', () => {
    const deltas: [unknown, number][] = [
      [3, 1],
      [-2, -1],
      [0, 0],
      [' -3 ', -1],
      ['1_000', 1],
      ['٣', 1],
      ['+7', 1],
      [true, 1],
      [2.7, 1],
      [-0.5, 0],
    ];
    for (const [delta, sign] of deltas) expect(parsed({ type: 'TAG', metadata: { delta } }).delta).toBe(sign);
    expect(parsed({ type: 'TAG', metadata: { helpful: 1 } }).delta).toBe(0);
    expect(parsed({ type: 'TAG', metadata: 'not a dict' }).delta).toBe(0);
  });

  it('a metadata value int() cannot read refuses the operation', () => {
    for (const bad of ['3.5', 'abc', '', '1__0', null, [], {}, Number.NaN, Infinity]) {
      const r = parseOperation({ type: 'TAG', metadata: { delta: bad } }, 1);
      expect(r.ok ? null : [r.error.code, r.error.opIndex]).toEqual(['invalid_operation', 1]);
    }
    const r = parseOperation({ type: 'TAG', metadata: { delta: '3.5' } });
    expect(r.ok ? null : r.error.message).toBe("invalid literal for int() with base 10: '3.5'");
  });

  it('insight_source is one object or a list of objects, canonicalised as ACE does', () => {
    expect(parsed({ type: 'ADD', insight_source: { trace_uid: 'sys:id1' } }).sources).toEqual([
      { trace_uid: 'sys:id1', source_system: 'sys', trace_id: 'id1', display_name: 'id1' },
    ]);
    expect(parsed({ type: 'ADD', insight_source: [{ trace_uid: ' web : run-7 ', display_name: '  ' }, 'x', 5] }).sources).toEqual([
      { trace_uid: 'web : run-7', source_system: 'web', trace_id: 'run-7', display_name: 'run-7' },
    ]);
    expect(parsed({ type: 'ADD', insight_source: { source_system: 'trace', sample_id: ' s-1 ', epoch: ' 3 ' } }).sources).toEqual([
      { trace_uid: 'trace:s-1', source_system: 'trace', trace_id: 's-1', display_name: 's-1', epoch: 3 },
    ]);
    expect(parsed({ type: 'ADD', insight_source: { item_id: 9, epoch: '-4' } }).sources).toEqual([
      { trace_uid: 'legacy:9', source_system: 'legacy', trace_id: '9', display_name: '9', epoch: -4 },
    ]);
    expect(parsed({ type: 'ADD', insight_source: { trace_uid: 'abc:', relation: ' supports ' } }).sources).toEqual([
      { trace_uid: 'abc:', source_system: 'abc', trace_id: '', relation: 'supports' },
    ]);
    expect(parsed({ type: 'ADD', insight_source: 'text' }).sources).toBeNull();
    expect(parsed({ type: 'ADD' }).sources).toBeNull();
  });

  it('a source without any id is named by the sha256 of its sorted JSON, as in ACE', () => {
    const fingerprint = 'e2f1abb1ab0579be69e0e4b003c35009bf72c8f9e94e9c6b845128bbe684a191';
    expect(parsed({ type: 'ADD', insight_source: { question: 'What is 2+2?', epoch: 2.5 } }).sources).toEqual([
      { trace_uid: `legacy:${fingerprint}`, source_system: 'legacy', trace_id: fingerprint, display_name: fingerprint },
    ]);
  });

  it('an epoch of repeated minus signs raises in ACE, and refuses the operation here', () => {
    expect(parseOperation({ type: 'ADD', insight_source: { trace_id: 't', epoch: '--1' } }).ok).toBe(false);
  });
});

describe('parseBatch - ACE UpdateBatch.from_json rules', () => {
  it('reads the operations list, skipping items that are not objects, keeping their indices', () => {
    const r = parseBatch({ reasoning: 'r', operations: ['x', null, { type: 'tag', skill_id: 'a-1' }] });
    expect(r.ok && r.ops.map((op) => [op.opIndex, op.type])).toEqual([[2, 'TAG']]);
  });

  it('an operations value that is not a list means no operations', () => {
    expect(parseBatch({ operations: { type: 'ADD' } })).toEqual({ ok: true, ops: [] });
    expect(parseBatch({})).toEqual({ ok: true, ops: [] });
  });

  it('a batch that is not an object, or not JSON, is refused', () => {
    expect(parseBatch([1])).toMatchObject({ ok: false, error: { code: 'invalid_batch' } });
    expect(parseBatch('{"operations": [')).toMatchObject({ ok: false, error: { code: 'invalid_json' } });
    expect(parseBatch('{"operations": []}')).toEqual({ ok: true, ops: [] });
  });

  it('a malformed operation anywhere refuses the whole batch, naming its index', () => {
    const r = parseBatch({ operations: [{ type: 'ADD', section: 'context' }, { type: 'NOPE' }] });
    expect(r).toMatchObject({ ok: false, error: { code: 'unknown_operation_type', opIndex: 1 } });
  });
});

describe('RawOperationSchema - the documented shape', () => {
  it('accepts a well-formed ADD and batch, and describes itself as JSON Schema', async () => {
    const op = { type: 'ADD', section: 'context', issue: 'Dates', insight: 'Use ISO 8601', keywords: ['dates'] };
    expect(RawOperationSchema.parse(op)).toEqual(op);
    expect(RawBatchSchema.safeParse({ operations: [op] }).success).toBe(true);
    expect(RawOperationSchema.safeParse({ section: 'context' }).success).toBe(false);
    const { z } = await import('zod');
    expect(z.toJSONSchema(RawOperationSchema)).toMatchObject({ type: 'object', required: ['type'] });
  });
});

describe('parseOperationFields - the same parse, read as properties', () => {
  /** Any value where a field is due: the right type, a wrong one, or anything at all. */
  const anyField = fc.oneof(fc.constant(undefined), fc.constant(null), fc.jsonValue({ maxDepth: 2 }), fc.anything({ maxDepth: 2 }));
  const anyFields = fc.record({
    ...(Object.fromEntries(OPERATION_FIELDS.map((key) => [key, anyField])) as Record<(typeof OPERATION_FIELDS)[number], typeof anyField>),
    // mostly a type that parses, so that the other fields are read
    type: fc.oneof({ weight: 4, arbitrary: fc.constantFrom('ADD', 'update', 'Tag', 'REMOVE') }, { weight: 1, arbitrary: anyField }),
  });

  it('parseOperationFields - an op with every field its own parses exactly as parseOperation parses it: op, or error', () => {
    fc.assert(
      fc.property(fc.oneof(rawOperation.map(withEveryField), anyFields.map(withEveryField)), fc.nat({ max: 5 }), (op, opIndex) => {
        expect(parseOperationFields(op, opIndex)).toEqual(parseOperation(op, opIndex));
      }),
      { numRuns: 1000 },
    );
  });

  it('parseOperationFields - the type given in any case, a deep value and an unreadable source answer as parseOperation does', () => {
    const deep = (n: number): unknown => (n === 0 ? 'x' : [deep(n - 1)]);
    const ops = [
      { type: 'add', issue: 'a' },
      { type: 'Tag', metadata: { delta: '-3' } },
      { type: 'ADD', issue: deep(1000) },
      { type: 'ADD', insight_source: { epoch: '--1', source_system: 's', trace_id: 't' } },
      { type: 7 },
      { type: undefined },
    ];
    for (const op of ops) expect(parseOperationFields(withEveryField(op), 2)).toEqual(parseOperation(withEveryField(op), 2));
  });
});
