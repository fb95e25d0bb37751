import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SkillbookErrorInfoSchema, Skillbook, SkillbookError } from '../src/index.ts';
import { book as arbitraryBook } from './utils/arbitraries.ts';
import { fixedClock } from './utils/fixture.ts';

const clock = fixedClock();

function expectValidOutcome(b: Skillbook, raw: unknown): void {
  const before = b.toJSON();
  const result = b.applyBatch(raw, { clock });
  if (result.ok) {
    // a valid book: it saves and loads back unchanged
    const text = result.book.toJSON();
    expect(Skillbook.fromJSON(text).toJSON()).toBe(text);
  } else {
    expect(SkillbookErrorInfoSchema.safeParse(result.error).success).toBe(true);
    expect(result.book).toBe(b);
  }
  expect(b.toJSON()).toBe(before);
}

const opKeys = fc.constantFrom(
  'type',
  'section',
  'skill_id',
  'issue',
  'insight',
  'keywords',
  'metadata',
  'reason',
  'insight_source',
  'learning_index',
  'reflection_indices',
  '__proto__',
);
const opTypes = fc.constantFrom('ADD', 'add', 'UPDATE', 'TAG', 'tag', 'REMOVE', 'Remove');
const fuzzedOp = fc.oneof(
  fc.dictionary(opKeys, fc.jsonValue({ maxDepth: 3 }), { maxKeys: 8 }),
  fc
    .record({ type: opTypes })
    .chain((typed) => fc.dictionary(opKeys, fc.anything({ maxDepth: 3 }), { maxKeys: 8 }).map((rest) => ({ ...rest, ...typed }))),
);

describe('bad input - never an exception, never a corrupted book', () => {
  it('parse - arbitrary JSON text gives a book or a structured error', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const result = Skillbook.parse(JSON.stringify(value));
        if (result.ok) expect(Skillbook.fromJSON(result.book.toJSON()).toJSON()).toBe(result.book.toJSON());
        else expect(SkillbookErrorInfoSchema.safeParse(result.error).success).toBe(true);
      }),
    );
  });

  it('parse - arbitrary values and garbage text are refused with a structured error', () => {
    fc.assert(
      fc.property(fc.oneof(fc.anything(), fc.string(), fc.string({ unit: 'binary' })), (value) => {
        const result = Skillbook.parse(value as string);
        if (!result.ok) expect(SkillbookErrorInfoSchema.safeParse(result.error).success).toBe(true);
      }),
    );
  });

  it('parse - document-shaped values with fuzzed fields give a book or an error naming a path', () => {
    const skill = fc.dictionary(
      fc.constantFrom('id', 'section', 'keywords', 'issue', 'insight', 'occurrences', 'active', 'used_count', 'created_at'),
      fc.jsonValue({ maxDepth: 2 }),
    );
    const doc = fc.record({
      schema_version: fc.constantFrom('2', 2),
      skills: fc.dictionary(fc.constantFrom('context-00001', '7', '__proto__'), skill),
      sections: fc.oneof(fc.constant({}), fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 1 }))),
      next_id: fc.jsonValue({ maxDepth: 0 }),
      similarity_decisions: fc.oneof(fc.constant({}), fc.dictionary(fc.string(), fc.jsonValue({ maxDepth: 2 }))),
    });
    fc.assert(
      fc.property(doc, (d) => {
        const result = Skillbook.parse(JSON.stringify(d));
        if (result.ok) expect(Skillbook.fromJSON(result.book.toJSON()).toJSON()).toBe(result.book.toJSON());
        else expect(result.error.code === 'invalid_document' ? typeof result.error.path : 'string').toBe('string');
      }),
    );
  });

  it('applyBatch - arbitrary values give a result or a structured error', () => {
    fc.assert(fc.property(arbitraryBook, fc.anything(), (b, raw) => expectValidOutcome(b, raw)));
  });

  it('applyBatch - arbitrary JSON values and their text give a result or a structured error', () => {
    fc.assert(
      fc.property(arbitraryBook, fc.jsonValue(), (b, raw) => {
        expectValidOutcome(b, raw);
        expectValidOutcome(b, JSON.stringify(raw));
      }),
    );
  });

  it('applyBatch - batches of fuzzed operations give a result or an error naming the op', () => {
    fc.assert(
      fc.property(arbitraryBook, fc.array(fc.oneof(fuzzedOp, fc.anything()), { maxLength: 6 }), (b, operations) => {
        expectValidOutcome(b, { operations });
        const result = b.applyBatch({ operations }, { clock });
        if (!result.ok && result.error.code !== 'invalid_batch') expect(result.error.opIndex).toBeTypeOf('number');
      }),
    );
  });

  it('applyBatch - deep nesting and cycles are refused or rendered, not a stack overflow', () => {
    let deep: unknown = 'x';
    for (let i = 0; i < 20_000; i++) deep = [deep];
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic['self'] = cyclic;
    const b = Skillbook.empty();
    const nested = b.applyBatch({ operations: [{ type: 'ADD', section: 'context', issue: deep, insight: 'x' }] });
    expect(nested.ok ? null : nested.error.code).toBe('invalid_operation');
    const text = b.applyBatch(`{"operations": ${'['.repeat(5000)}${']'.repeat(5000)}}`);
    expect(text.ok ? null : text.error.code).toBe('invalid_json');
    const cycle = b.applyBatch({ operations: [{ type: 'ADD', section: 'context', issue: cyclic, insight: 'x' }] }, { clock });
    expect(cycle.ok && cycle.book.get('context-00001')?.issue).toBe("{'a': 1, 'self': {...}}");
    const fingerprint = b.applyBatch({
      operations: [{ type: 'ADD', section: 'context', issue: 'i', insight: 'x', insight_source: cyclic }],
    });
    expect(fingerprint.ok ? null : fingerprint.error.message).toBe('Circular reference detected');
  });

  it('parse - a document nested too deeply is refused as invalid JSON', () => {
    const result = Skillbook.parse(`${'['.repeat(100_000)}${']'.repeat(100_000)}`);
    expect(result.ok ? null : result.error.code).toBe('invalid_json');
  });
});

describe('bad input - schema versions', () => {
  it.each([
    ['"1"', "'1'"],
    ['3', "'3'"],
    ['"2.0"', "'2.0'"],
    ['2.0', "'2.0'"],
    ['null', "'None'"],
    ['" 2"', "' 2'"],
  ])('a document with schema_version %s is refused, naming the version found', (version, named) => {
    const result = Skillbook.parse(`{"schema_version": ${version}, "skills": {}}`);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.code).toBe('unsupported_schema_version');
    expect(result.error.message).toContain(`schema version ${named}`);
    expect(result.error.path).toBe('schema_version');
  });

  it('a document without schema_version is refused as unsupported', () => {
    const result = Skillbook.parse('{"skills": {}}');
    expect(result.ok ? null : [result.error.code, result.error.message]).toEqual([
      'unsupported_schema_version',
      'schema_version: the document has no schema_version; Cohort reads the Skillbook format v2 (ACE: "Skillbook format v2 required — regenerate")',
    ]);
    const old = Skillbook.parse('{"schema_version": "1", "skills": {}}');
    expect(old.ok ? null : old.error.message).toBe(
      'schema_version: schema version \'1\' is not supported; Cohort reads the Skillbook format v2 (ACE: "Skillbook format v2 required — regenerate")',
    );
  });

  it('fromJSON throws a SkillbookError carrying the code and path', () => {
    expect(() => Skillbook.fromJSON('{"schema_version": "1"}')).toThrow(SkillbookError);
    try {
      Skillbook.fromJSON('{"schema_version": "2", "skills": {"a-1": {"id": "a-1", "issue": " "}}}');
    } catch (e) {
      expect(e).toBeInstanceOf(SkillbookError);
      expect((e as SkillbookError).code).toBe('invalid_document');
      expect((e as SkillbookError).path).toBe('skills.a-1.issue');
      expect((e as SkillbookError).toInfo()).toEqual({
        code: 'invalid_document',
        message: 'skills.a-1.issue: issue is required and must be non-empty',
        path: 'skills.a-1.issue',
      });
    }
  });
});

describe('bad input - awkward ids and sizes', () => {
  const awkward = ['__proto__', 'constructor', 'toString', 'hasOwnProperty', '7', '12', '0', 'prototype'];

  it('ids such as __proto__, constructor, toString and 7 are ordinary ids, kept in insertion order', () => {
    const operations = awkward.map((id, i) => ({ type: 'ADD', section: 'context', issue: `issue ${i}`, insight: 'x', skill_id: id }));
    const r = Skillbook.empty().applyBatch({ operations }, { clock });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const b = r.book;
    expect([...b.skills()].map((s) => s.id)).toEqual(awkward);
    for (const id of awkward) expect(b.has(id) && b.get(id)?.id).toBe(id);
    expect(b.has('valueOf')).toBe(false);
    expect(Object.keys(JSON.parse(b.toJSON()) as object)).toEqual([
      'schema_version',
      'skills',
      'sections',
      'next_id',
      'similarity_decisions',
    ]);
    expect(b.toJSON().indexOf('"__proto__": {')).toBeLessThan(b.toJSON().indexOf('"7": {'));
    const again = Skillbook.fromJSON(b.toJSON());
    expect(again.toJSON()).toBe(b.toJSON());
    expect([...again.skills()].map((s) => s.id)).toEqual(awkward);
    const tagged = again.applyBatch(
      { operations: awkward.map((id) => ({ type: 'TAG', skill_id: id, metadata: { delta: 1 } })) },
      { clock },
    );
    expect(tagged.ok && tagged.applied.length).toBe(awkward.length);
    const dup = again.applyBatch({ operations: [{ type: 'ADD', section: 'context', issue: 'i', insight: 'x', skill_id: '__proto__' }] });
    expect(dup.ok ? null : dup.error.code).toBe('duplicate_skill_id');
    expect(Object.hasOwn(Object.prototype, 'polluted')).toBe(false);
  });

  it('metadata and sections keyed __proto__ are ordinary keys', () => {
    const r = Skillbook.empty().applyBatch(
      '{"operations": [{"type": "ADD", "section": "__proto__", "issue": "i"}, {"type": "TAG", "skill_id": "context-00001", "metadata": {"__proto__": 5, "delta": -4}}]}',
      { clock },
    );
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.book.get('context-00001')?.keywords).toEqual(['__proto__']);
    expect(r.book.get('context-00001')?.harmful_count).toBe(1);
    expect(Object.getOwnPropertyNames(r.applied[1]?.metadata)).toEqual(['__proto__', 'delta']);
    const doc = Skillbook.fromJSON('{"schema_version": "2", "skills": {}, "sections": {"__proto__": [], "7": []}}');
    expect(doc.toJSON()).toContain('"sections": {\n    "__proto__": [],\n    "7": []\n  }');
  });

  it('very long strings (1 MB) and many keywords (10,000) work', () => {
    const long = 'ü'.repeat(1_000_000);
    const keywords = Array.from({ length: 10_000 }, (_, i) => `Keyword ${i}`);
    const r = Skillbook.empty().applyBatch(
      { operations: [{ type: 'ADD', section: 'harness', issue: ` ${long} `, insight: long, keywords }] },
      { clock },
    );
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const skill = r.book.get('harness-00001');
    expect(skill?.issue.length).toBe(1_000_000);
    expect(skill?.keywords.length).toBe(10_000);
    expect(skill?.keywords[9_999]).toBe('keyword_9999');
    const text = r.book.toJSON();
    expect(Skillbook.fromJSON(text).toJSON()).toBe(text);
    expect(r.book.asPrompt().length).toBeGreaterThan(2_000_000);
    const blank = Skillbook.empty().applyBatch({ operations: [{ type: 'ADD', section: 'context', issue: ' '.repeat(1_000_000) }] });
    expect(blank.ok ? null : blank.error.message).toBe('issue is required and must be non-empty');
  });
});

describe('bad input - exotic values', () => {
  it('a batch whose values throw when read is refused, not thrown', () => {
    const hostile = new Proxy(
      {},
      {
        getPrototypeOf: () => {
          throw new Error('boom');
        },
      },
    );
    expect(Skillbook.empty().applyBatch(hostile)).toMatchObject({ ok: false, error: { code: 'invalid_batch' } });
    const getter = {
      get operations(): unknown {
        throw new Error('boom');
      },
    };
    expect(Skillbook.empty().applyBatch(getter)).toMatchObject({ ok: false, error: { code: 'invalid_batch' } });
    const op = {
      type: 'ADD',
      get issue(): unknown {
        throw new Error('boom');
      },
    };
    expect(Skillbook.empty().applyBatch({ operations: [op] })).toMatchObject({
      ok: false,
      error: { code: 'invalid_operation', opIndex: 0 },
    });
  });
});
