import fc from 'fast-check';
import { Skillbook } from '../../src/index.ts';
import type { Clock, OperationFields } from '../../src/index.ts';

/** A small pool of ids so that ops hit existing skills, collide, and include awkward names. */
export const ID_POOL = [
  'context-00001',
  'context-00002',
  'context-00003',
  'harness-00004',
  'harness-00005',
  'context-00006',
  '7',
  '__proto__',
  'constructor',
  'toString',
  'x_y-12',
] as const;

const text = fc.oneof(
  fc.constantFrom('dates', 'Use ISO 8601', '  padded  ', '', '   ', 'ünïcode ✓', 'line\nbreak', 'emoji 🚀', 'tab\tsep'),
  fc.string({ maxLength: 12 }),
);

const section = fc.constantFrom('context', 'harness', 'Context', ' HARNESS ', 'strategy notes', 'Legacy', '', 'context');

const source = fc.record(
  {
    source_system: fc.constantFrom('trace', 'sample', ' local '),
    trace_id: fc.constantFrom('q1', 'q2', 'q3'),
    trace_uid: fc.constantFrom('sys:a', 'b:c'),
    epoch: fc.integer({ min: -2, max: 3 }),
    display_name: fc.constantFrom('shown', ''),
    sample_question: text,
  },
  { requiredKeys: [] },
);

/** A raw ACE operation: mostly well-formed, sometimes wrong (blank issue, unknown type, …). */
export const rawOperation: fc.Arbitrary<Record<string, unknown>> = fc.record(
  {
    type: fc.constantFrom('ADD', 'ADD', 'add', 'UPDATE', 'update', 'TAG', 'tag', 'REMOVE', 'remove', 'BOGUS'),
    section,
    skill_id: fc.oneof(fc.constantFrom(...ID_POOL), fc.constant(null)),
    issue: fc.oneof(text, fc.integer(), fc.constant(null)),
    insight: fc.oneof(text, fc.constant(null)),
    keywords: fc.array(fc.oneof(text, fc.integer()), { maxLength: 4 }),
    metadata: fc.record({ delta: fc.oneof(fc.integer({ min: -3, max: 3 }), fc.constantFrom('2', ' -1 ', 'x')) }, { requiredKeys: [] }),
    reason: fc.oneof(text, fc.constant(null)),
    insight_source: fc.oneof(source, fc.array(source, { maxLength: 3 })),
  },
  { requiredKeys: ['type'] },
);

/** The fields an operation has (see `OperationFields`). */
export const OPERATION_FIELDS = [
  'type',
  'section',
  'skill_id',
  'issue',
  'keywords',
  'insight',
  'metadata',
  'reason',
  'insight_source',
] as const;

/** An op with every field its own property, `undefined` where the op has none. */
export function withEveryField(op: Record<string, unknown>): OperationFields {
  return Object.fromEntries(OPERATION_FIELDS.map((key) => [key, op[key]])) as unknown as OperationFields;
}

/** A raw batch of up to 6 operations. */
export const rawBatch = fc.record({ reasoning: text, operations: fc.array(rawOperation, { maxLength: 6 }) });

/** A clock moving 1 ms (plus a fraction) per reading, from a fixed instant. */
export function tickingClock(start = Date.UTC(2026, 5, 1)): Clock {
  let t = start;
  return { now: () => (t += 1.25) };
}

/** Applies the batches in turn (rejected ones leave the book as it was); returns every version. */
export function history(batches: readonly unknown[], clock: Clock = tickingClock()): Skillbook[] {
  const books = [Skillbook.empty()];
  for (const batch of batches) {
    const last = books[books.length - 1] as Skillbook;
    books.push(last.applyBatch(batch, { clock }).book);
  }
  return books;
}

/** A book built by a few random batches. */
export const book: fc.Arbitrary<Skillbook> = fc.array(rawBatch, { maxLength: 6 }).map((batches) => {
  const all = history(batches);
  return all[all.length - 1] as Skillbook;
});
