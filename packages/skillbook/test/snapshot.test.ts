import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AppliedOpSchema, Skillbook } from '../src/index.ts';
import type { AppliedOp } from '../src/index.ts';
import { OPERATION_FIELDS, book, tickingClock } from './utils/arbitraries.ts';
import { describeBook } from './utils/describeBook.ts';

/** The book reading `b`'s document at `revision` gives: what a snapshot must give. */
function reread(b: Skillbook, revision: number): Skillbook {
  return Skillbook.fromJSON(b.toJSON(), { revision });
}

function fromSnapshot(text: string, revision: number): Skillbook {
  const read = Skillbook.fromSnapshot(text, { revision });
  if (!read.ok) throw new Error(read.error.message);
  return read.book;
}

const DOC_WITH_DECISIONS = `{"schema_version": "2", "skills": {
  "7": {"id": "7", "section": "Old Notes", "keywords": [" Units "], "issue": " i ", "insight": null, "active": 0, "created_at": "t", "updated_at": "u"},
  "__proto__": {"id": "__proto__", "section": "harness", "issue": "proto", "occurrences": [{"trace_uid": "sys:a", "epoch": "3"}], "created_at": "t", "updated_at": "u"}},
  "sections": {}, "next_id": 2,
  "similarity_decisions": {"b,a": {"decision": "KEEP", "reasoning": ["r", 1.50, null], "decided_at": 123456789012345678901234567890, "similarity_at_decision": NaN}}}`;

describe('Skillbook snapshots', () => {
  it("fromSnapshot - reading a book's snapshot gives the book reading its document gives (fast-check)", () => {
    fc.assert(
      fc.property(book, fc.nat({ max: 1000 }), (b, revision) => {
        expect(describeBook(fromSnapshot(b.toSnapshot(), revision))).toEqual(describeBook(reread(b, revision)));
      }),
      { numRuns: 200 },
    );
  });

  it('fromSnapshot - similarity decisions, legacy sections, awkward ids, sources and rebuilt sections read back the same', () => {
    const loaded = Skillbook.fromJSON(DOC_WITH_DECISIONS, { revision: 3, clock: { now: () => 0 } });
    const more = loaded.applyBatch(
      {
        operations: [
          {
            type: 'ADD',
            section: 'harness',
            issue: 'ünïcode ✓ \u2028',
            insight_source: [{ trace_uid: 'x:y' }, { source_system: 's', trace_id: 't', epoch: 2 }],
          },
        ],
      },
      { clock: tickingClock() },
    );
    expect(more.ok).toBe(true);
    for (const b of [loaded, more.book]) {
      expect(describeBook(fromSnapshot(b.toSnapshot(), 9))).toEqual(describeBook(reread(b, 9)));
    }
    expect(fromSnapshot(loaded.toSnapshot(), 9).toJSON()).toContain('"similarity_at_decision": NaN');
  });

  it('toSnapshot - the same book gives the same text', () => {
    const b = reread(Skillbook.fromJSON(DOC_WITH_DECISIONS, { clock: { now: () => 0 } }), 1);
    expect(b.toSnapshot()).toBe(b.toSnapshot());
  });

  it('fromSnapshot - refuses what is not a snapshot as a value, never throwing', () => {
    const b = Skillbook.fromJSON(DOC_WITH_DECISIONS, { clock: { now: () => 0 } });
    const good = b.toSnapshot();
    const refused = (text: string) => {
      const r = Skillbook.fromSnapshot(text);
      return r.ok ? null : r.error.code;
    };
    expect(refused('{"schema_version": "2"}')).toBe('invalid_document');
    expect(refused(good.slice(0, good.length - 10))).toBe('invalid_json');
    expect(refused(good.replace('"nextId":', '"nextId":"x","n":'))).toBe('invalid_document');
    expect(refused(good.replace('"issue":["', '"issue":[7,"'))).toBe('invalid_document');
    expect(refused(good.replace('"ids":["7",', '"ids":['))).toBe('invalid_document');
    expect(refused(good.replace('"similarity":"{', '"similarity":"{{'))).toBe('invalid_json');
    fc.assert(
      fc.property(fc.nat({ max: good.length }), fc.string({ maxLength: 3 }), (cut, junk) => {
        const r = Skillbook.fromSnapshot(good.slice(0, cut) + junk + good.slice(cut + junk.length));
        if (!r.ok) {
          expect(['invalid_json', 'invalid_document']).toContain(r.error.code);
          return;
        }
        // what it does read is a whole book: its skills are all there, and it writes and reads back as itself
        expect([...r.book.skills()]).toHaveLength(r.book.size);
        const again = Skillbook.fromSnapshot(r.book.toSnapshot());
        expect(again.ok && again.book.toJSON()).toBe(r.book.toJSON());
      }),
    );
  });
});

describe('Skillbook.replay - the plain-op check', () => {
  const base = Skillbook.fromJSON(DOC_WITH_DECISIONS, { clock: { now: () => 0 } });
  const tag: AppliedOp = {
    type: 'TAG',
    section: 'harness',
    skill_id: '__proto__',
    metadata: { delta: 1 },
    at: '2026-01-01T00:00:00.000000+00:00',
  };
  const anything = fc.oneof(
    fc.string({ maxLength: 4 }),
    fc.integer(),
    fc.constant(null),
    fc.constant(undefined),
    fc.array(fc.string({ maxLength: 2 }), { maxLength: 2 }),
    fc.dictionary(fc.constantFrom('delta', 'x', '__proto__'), fc.oneof(fc.integer(), fc.string({ maxLength: 2 }), fc.double())),
    fc.constant('2026-01-01T00:00:00Z'),
    fc.constant(''),
  );
  const field = fc.constantFrom(...OPERATION_FIELDS, 'at', 'extra');

  it('replay - accepts an op exactly when AppliedOpSchema does (fast-check)', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(field, anything), { maxLength: 3 }), (changes) => {
        const op: Record<string, unknown> = { ...tag };
        for (const [key, value] of changes) op[key] = value;
        const schema = AppliedOpSchema.safeParse(op);
        const replayed = base.replay([op as unknown as AppliedOp]);
        if (!schema.success) {
          expect(replayed.ok ? 'applied' : replayed.error.message).toMatch(/^not an applied op/);
          return;
        }
        // accepted: it replays as the schema's output does (which may still not apply: an ADD without insight)
        const expected = base.replay([schema.data as AppliedOp]);
        expect(replayed.ok ? replayed.book.toJSON() : replayed.error).toEqual(expected.ok ? expected.book.toJSON() : expected.error);
      }),
      { numRuns: 500 },
    );
  });
});
