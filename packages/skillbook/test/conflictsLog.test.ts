/**
 * `conflicts` answers from the book's log of recently changed ids when it can; these tests pin
 * that it gives exactly what looking every op up gives, for any book, history, ops and base.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Skillbook, formatSkillId } from '../src/index.ts';
import type { AppliedOp, Conflict, ConflictReason, Skill, SkillbookDraft, SkillRevisions } from '../src/index.ts';
import { ID_POOL, rawBatch, tickingClock } from './utils/arbitraries.ts';

/** What the straightforward check reads: a book or a draft. */
interface Reads {
  get(id: string): Skill | undefined;
  revisionsOf(id: string): SkillRevisions | undefined;
  tombstone(id: string): number | undefined;
  conflicts(ops: readonly AppliedOp[], base: number): Conflict[];
}

/** The conflict table, every op looked up (what `conflicts` did before the log). */
function lookEveryOpUp(book: Reads, ops: readonly AppliedOp[], base: number): Conflict[] {
  const out: Conflict[] = [];
  ops.forEach((op, opIndex) => {
    const found = reasonOf(book, op, base);
    if (found) out.push({ opIndex, type: op.type, skillId: op.skill_id, reason: found[0], revision: found[1] });
  });
  return out;
}

function reasonOf(book: Reads, op: AppliedOp, base: number): [ConflictReason, number] | null {
  if (op.type === 'TAG') return null;
  const revs = book.revisionsOf(op.skill_id);
  const active = book.get(op.skill_id)?.active;
  const purgedAt = revs ? undefined : book.tombstone(op.skill_id);
  if (op.type === 'ADD') {
    if (revs) return ['id_exists', revs.content];
    return purgedAt === undefined ? null : ['id_exists', purgedAt];
  }
  if (!revs) return op.type === 'UPDATE' && purgedAt !== undefined && purgedAt > base ? ['removed', purgedAt] : null;
  if (op.type === 'REMOVE') return revs.content > base && active ? ['content_changed', revs.content] : null;
  if (revs.content > base) return ['content_changed', revs.content];
  if (revs.active > base && !active) return ['removed', revs.active];
  return null;
}

/** Ids around the counters the histories reach, and a few that do not look allocated. */
const anyId = fc.oneof(
  fc.constantFrom(...ID_POOL, 'gone-1', 'a-0', 'x-9007199254740993'),
  fc.tuple(fc.constantFrom('context', 'harness'), fc.integer({ min: 0, max: 90 })).map(([s, n]) => formatSkillId(s, n)),
);

/** Ops as anyone may pass them: any type, any id (only the fields `conflicts` reads). */
const looseOps = fc.array(
  fc
    .record({ type: fc.constantFrom('ADD', 'UPDATE', 'TAG', 'REMOVE', 'add', 'BOGUS'), skill_id: anyId })
    .map((op) => op as unknown as AppliedOp),
  { maxLength: 8 },
);

/** A batch that applies: ADDs (allocated or named), UPDATEs, REMOVEs and TAGs on pool ids. */
const plainBatch = fc
  .array(
    fc.oneof(
      fc.record({
        type: fc.constant('ADD'),
        section: fc.constantFrom('context', 'harness'),
        issue: fc.constantFrom('a', 'b'),
        insight: fc.constant('i'),
      }),
      fc.record({ type: fc.constant('ADD'), section: fc.constant('harness'), issue: fc.constant('n'), skill_id: anyId }),
      fc.record({ type: fc.constant('UPDATE'), skill_id: anyId, issue: fc.constantFrom('u1', 'u2') }),
      fc.record({ type: fc.constant('UPDATE'), skill_id: anyId, insight_source: fc.constant({ source_system: 's', trace_id: 't' }) }),
      fc.record({ type: fc.constant('REMOVE'), skill_id: anyId }),
      fc.record({ type: fc.constant('TAG'), skill_id: anyId, metadata: fc.constant({ delta: 1 }) }),
    ),
    { minLength: 1, maxLength: 5 },
  )
  .map((operations) => ({ operations }));

const batch = fc.oneof({ weight: 3, arbitrary: plainBatch }, { weight: 1, arbitrary: rawBatch });

/** A base: a version's revision, any revision around them, or an odd number. */
const base = fc.oneof(
  fc.integer({ min: -2, max: 90 }),
  fc.constantFrom(Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, 0.5, 3.5),
);

/** One check: ops of a commit made on some earlier version, or loose ops, against some base. */
const check = fc.record({ version: fc.nat(), childBatch: batch, loose: looseOps, base, baseIsVersion: fc.boolean() });
type Check = typeof check extends fc.Arbitrary<infer T> ? T : never;

const step = fc.oneof(
  { weight: 6, arbitrary: fc.record({ kind: fc.constant('batch' as const), batch }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('tags' as const), ids: fc.array(anyId, { minLength: 1, maxLength: 3 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('purge' as const), ids: fc.array(anyId, { maxLength: 3 }) }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('draft' as const),
      batches: fc.array(batch, { minLength: 1, maxLength: 4 }),
      checks: fc.array(check, { maxLength: 2 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('load' as const) }) },
);

/** Runs `c` on `reads`, whose history so far is `versions`: both ways must agree. */
function agree(reads: Reads, versions: readonly Skillbook[], c: Check): void {
  const on = versions[c.version % versions.length] as Skillbook;
  const b = c.baseIsVersion ? on.revision : c.base;
  const child = on.applyBatch(c.childBatch, { clock: tickingClock() });
  for (const ops of [child.ok ? child.applied : [], c.loose, [...(child.ok ? child.applied : []), ...c.loose]]) {
    expect(reads.conflicts(ops, b)).toEqual(lookEveryOpUp(reads, ops, b));
  }
}

describe('conflicts - the recent-changes log gives what looking every op up gives', () => {
  it('for random histories (batches, TAG-only commits, purges, drafts, reloads), ops and bases', () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 80 }), fc.array(check, { minLength: 1, maxLength: 12 }), (steps, checks) => {
        const clock = tickingClock();
        let book = Skillbook.empty();
        const versions = [book];
        for (const s of steps) {
          if (s.kind === 'batch') book = book.applyBatch(s.batch, { clock }).book;
          else if (s.kind === 'tags')
            book = book.applyBatch({ operations: s.ids.map((skill_id) => ({ type: 'TAG', skill_id })) }, { clock }).book;
          else if (s.kind === 'purge') book = book.purge(s.ids);
          else if (s.kind === 'load') book = Skillbook.fromJSON(book.toJSON(), { revision: book.revision });
          else {
            const draft: SkillbookDraft = book.edit();
            for (const b of s.batches) {
              draft.applyBatch(b, { clock });
              for (const c of s.checks) agree(draft, [...versions, book], c);
            }
            book = draft.finish();
          }
          if (book !== versions[versions.length - 1]) versions.push(book);
        }
        for (const c of checks) {
          agree(book, versions, c);
          agree(versions[c.version % versions.length] as Skillbook, versions, c);
        }
      }),
      { numRuns: 150 },
    );
  });

  it('for long histories, whose older revisions left the log or sit in its older generation', () => {
    const longStep = fc.oneof(
      { weight: 8, arbitrary: fc.record({ kind: fc.constant('batch' as const), batch: plainBatch }) },
      {
        weight: 1,
        arbitrary: fc.record({ kind: fc.constant('draft' as const), batches: fc.array(plainBatch, { minLength: 1, maxLength: 3 }) }),
      },
    );
    const versionCheck = fc.record({ version: fc.nat(), childBatch: plainBatch, loose: looseOps, base, baseIsVersion: fc.constant(true) });
    fc.assert(
      fc.property(
        fc.array(longStep, { minLength: 70, maxLength: 160 }),
        fc.array(versionCheck, { minLength: 10, maxLength: 30 }),
        (steps, checks) => {
          const clock = tickingClock();
          let book = Skillbook.empty();
          const versions = [book];
          for (const s of steps) {
            if (s.kind === 'batch') book = book.applyBatch(s.batch, { clock }).book;
            else {
              const draft = book.edit();
              for (const b of s.batches) draft.applyBatch(b, { clock });
              book = draft.finish();
            }
            if (book !== versions[versions.length - 1]) versions.push(book);
          }
          for (const c of checks) agree(book, versions, c);
        },
      ),
      { numRuns: 25 },
    );
  });

  it('a commit that changed more ids than the log keeps empties it; older bases are still answered', () => {
    const clock = tickingClock();
    const start = Skillbook.empty().applyBatch({ operations: [{ type: 'ADD', section: 'harness', issue: 'first' }] }, { clock });
    expect(start.ok).toBe(true);
    if (!start.ok) return;
    const operations = Array.from({ length: 2_100 }, (_, i) => ({ type: 'ADD', section: 'harness', issue: `bulk ${i}` }));
    const bulk = start.book.applyBatch({ operations }, { clock });
    expect(bulk.ok).toBe(true);
    if (!bulk.ok) return;
    const later = bulk.book.applyBatch({ operations: [{ type: 'UPDATE', skill_id: 'harness-00001', issue: 'changed' }] }, { clock });
    expect(later.ok).toBe(true);
    if (!later.ok) return;
    const child = start.book.applyBatch(
      {
        operations: [
          { type: 'UPDATE', skill_id: 'harness-00001', issue: 'mine' },
          { type: 'ADD', section: 'harness', issue: 'x', skill_id: 'harness-00005' },
        ],
      },
      { clock },
    );
    expect(child.ok).toBe(true);
    if (!child.ok) return;
    // ops on skills the bulk commit added: they changed after the first two bases
    const loose = ['UPDATE', 'REMOVE', 'ADD'].map((type) => ({ type, skill_id: 'harness-00005' }) as unknown as AppliedOp);
    for (const b of [0, start.book.revision, bulk.book.revision]) {
      for (const ops of [child.applied, loose]) expect(later.book.conflicts(ops, b)).toEqual(lookEveryOpUp(later.book, ops, b));
    }
    expect(later.book.conflicts(loose, start.book.revision).map((c) => c.reason)).toEqual([
      'content_changed',
      'content_changed',
      'id_exists',
    ]);
    expect(later.book.conflicts(child.applied, start.book.revision).map((c) => c.reason)).toEqual(['content_changed', 'id_exists']);
  });
});
