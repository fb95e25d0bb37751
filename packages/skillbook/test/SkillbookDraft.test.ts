import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Skillbook, createIdAllocator, formatSkillId } from '../src/index.ts';
import type { ApplyOptions, IdAllocator, OperationLimits, SkillbookDraft } from '../src/index.ts';
import { effectOf } from '../src/internal/engine/replayCache.ts';
import { book, rawBatch, rawOperation, tickingClock, withEveryField } from './utils/arbitraries.ts';

/** Limits that some of the arbitrary ops break. */
const tight: OperationLimits = { maxTextLength: 8, maxKeywords: 2, maxKeywordLength: 6, maxSources: 1, maxIdLength: 14 };

/** Options two drafts are given alike: the same clock readings and the same ids, from two instances. */
const twinOptions = fc
  .record({ allocated: fc.boolean(), limited: fc.boolean(), from: fc.nat({ max: 40 }) })
  .map(({ allocated, limited, from }) => () => {
    const options: ApplyOptions = { clock: tickingClock(Date.UTC(2027, 0, 1)) };
    return { ...options, ...(allocated ? { allocateId: createIdAllocator(from).allocate } : {}), ...(limited ? { limits: tight } : {}) };
  });

/** An op with every field its own (what `applyOperation` takes): well-formed, or wrong in the ways `rawOperation` is. */
const anyOperation = rawOperation.map(withEveryField);

/**
 * Allocators two drafts are given alike, from two instances: none (the book's own counter), a
 * counter, or one that first writes to a draft of its own — one op or a batch, through an
 * allocator that may itself write elsewhere — and sometimes has no id at hand.
 */
const twinAllocators = fc
  .record({
    kind: fc.constantFrom('own', 'counter', 'op', 'batch'),
    from: fc.nat({ max: 40 }),
    depth: fc.nat({ max: 2 }),
    dryEvery: fc.nat({ max: 4 }),
  })
  .map(
    (spec) => (): IdAllocator | undefined =>
      spec.kind === 'own' ? undefined : allocatorOf(spec.kind, spec.from, spec.depth, spec.dryEvery),
  );

function allocatorOf(kind: string, from: number, depth: number, dryEvery: number): IdAllocator {
  const ids = createIdAllocator(from);
  if (kind === 'counter') return ids.allocate;
  const elsewhere = Skillbook.empty().edit();
  const inner = depth > 0 ? allocatorOf(kind, from + 1000, depth - 1, 0) : undefined;
  let calls = 0;
  return (section) => {
    const op = withEveryField({ type: 'ADD', section: 'context', issue: 'elsewhere', insight: 'x' });
    const options: ApplyOptions = { clock: tickingClock(), ...(inner ? { allocateId: inner } : {}) };
    if (kind === 'op') elsewhere.applyOperation(op, options);
    else elsewhere.applyBatch({ operations: [op, op] }, options);
    calls += 1;
    return dryEvery > 0 && calls % dryEvery === 0 ? null : ids.allocate(section);
  };
}

function state(draft: SkillbookDraft): unknown {
  const skills = [...draft.skills()].map((s) => [s, draft.revisionsOf(s.id)]);
  return { revision: draft.revision, nextId: draft.nextId, size: draft.size, skills, active: draft.active };
}

describe('SkillbookDraft.applyOperation', () => {
  it('applyOperation - an op gives exactly what a batch of it gives: outcome, applied op, ids, revisions and book', () => {
    fc.assert(
      fc.property(book, rawBatch, anyOperation, twinOptions, (old, first, op, options) => {
        const [single, batched] = [old.edit(), old.edit()];
        const [o1, o2] = [options(), options()];
        // a first batch gives the drafts a journal of their own (or not, when it is refused or empty)
        single.applyBatch(first, o1);
        batched.applyBatch(first, o2);
        const one = single.applyOperation(op, o1);
        const all = batched.applyBatch({ operations: [op] }, o2);
        expect(one.ok).toBe(all.ok);
        if (!one.ok || !all.ok) {
          expect(one.ok ? null : one.error).toEqual(all.ok ? null : all.error);
        } else {
          expect(one.applied).toEqual(all.applied[0] ?? null);
          expect(one.skipped).toEqual(all.skipped[0] ?? null);
          if (one.applied) {
            expect(Object.keys(one.applied)).toEqual(Object.keys(all.applied[0] ?? {}));
            expect(Reflect.ownKeys(one.applied)).toEqual(Object.keys(one.applied));
            expect(Object.isFrozen(one.applied)).toBe(true);
            expect(effectOf(one.applied)).toEqual(effectOf(all.applied[0]));
          }
        }
        expect(state(single)).toEqual(state(batched));
        expect(single.finish().toJSON()).toBe(batched.finish().toJSON());
        // and what books give, batch by batch, without a draft (the active counts included)
        const o3 = options();
        const book = old.applyBatch(first, o3).book.applyBatch({ operations: [op] }, o3).book;
        expect(single.finish().toJSON()).toBe(book.toJSON());
        expect(single.finish().stats()).toEqual(book.stats());
      }),
      { numRuns: 400 },
    );
  });

  it('applyOperation - for any ops and any allocator, re-entrant ones included, the one-op lane and the batch give the same results, revisions and book', () => {
    fc.assert(
      fc.property(book, fc.array(anyOperation, { maxLength: 8 }), twinAllocators, (old, ops, allocator) => {
        const [single, batched] = [old.edit(), old.edit()];
        const [a1, a2] = [allocator(), allocator()];
        const [c1, c2] = [tickingClock(), tickingClock()];
        for (const op of ops) {
          const one = single.applyOperation(op, { clock: c1, ...(a1 ? { allocateId: a1 } : {}) });
          const all = batched.applyBatch({ operations: [op] }, { clock: c2, ...(a2 ? { allocateId: a2 } : {}) });
          const asBatch = one.ok ? { ok: true, applied: one.applied ? [one.applied] : [], skipped: one.skipped ? [one.skipped] : [] } : one;
          const { book: _book, ...batch } = all;
          expect(asBatch).toEqual(batch);
          expect(state(single)).toEqual(state(batched));
        }
        expect(single.finish().toJSON()).toBe(batched.finish().toJSON());
      }),
      { numRuns: 300 },
    );
  });

  it('applyOperation - ops on several drafts, interleaved, give each draft what its ops alone give it', () => {
    fc.assert(
      fc.property(book, fc.array(fc.tuple(fc.nat({ max: 2 }), anyOperation), { maxLength: 24 }), (old, ops) => {
        const drafts = [old.edit(), old.edit(), old.edit()];
        const alone = [old.edit(), old.edit(), old.edit()];
        const clocks = [0, 1, 2].map(() => tickingClock());
        const again = [0, 1, 2].map(() => tickingClock());
        for (const [i, op] of ops) drafts[i]?.applyOperation(op, { clock: clocks[i] as ReturnType<typeof tickingClock> });
        for (const i of [0, 1, 2])
          for (const [j, op] of ops) if (j === i) alone[i]?.applyOperation(op, { clock: again[i] as ReturnType<typeof tickingClock> });
        for (const i of [0, 1, 2]) expect(drafts[i]?.finish().toJSON()).toBe(alone[i]?.finish().toJSON());
      }),
      { numRuns: 200 },
    );
  });

  it('applyOperation - a refused op leaves the draft as it was, its earlier writes included', () => {
    const draft = Skillbook.empty().edit();
    const clock = tickingClock();
    expect(draft.applyOperation(withEveryField({ type: 'ADD', section: 'harness', issue: 'a', insight: 'x' }), { clock }).ok).toBe(true);
    const before = state(draft);
    const dup = draft.applyOperation(withEveryField({ type: 'ADD', section: 'harness', skill_id: 'harness-00001', issue: 'b' }), { clock });
    expect(dup).toMatchObject({ ok: false, error: { code: 'duplicate_skill_id', opIndex: 0 } });
    const long = draft.applyOperation(withEveryField({ type: 'ADD', section: 'harness', issue: 'x'.repeat(9) }), { clock, limits: tight });
    expect(long).toMatchObject({ ok: false, error: { code: 'limit_exceeded', path: 'operations.0.issue' } });
    expect(state(draft)).toEqual(before);
  });

  it('applyOperation - an allocator that throws leaves the draft as it was, and the throw reaches the caller', () => {
    const draft = Skillbook.empty().edit();
    draft.applyOperation(withEveryField({ type: 'ADD', section: 'harness', issue: 'a' }));
    const before = state(draft);
    const allocateId = (): never => {
      throw new Error('no ids');
    };
    expect(() => draft.applyOperation(withEveryField({ type: 'ADD', section: 'harness', issue: 'b' }), { allocateId })).toThrow('no ids');
    expect(state(draft)).toEqual(before);
    // and the next op, on this draft or another, runs as ever
    expect(draft.applyOperation(withEveryField({ type: 'ADD', section: 'harness', issue: 'c' }))).toMatchObject({
      ok: true,
      applied: { skill_id: 'harness-00002' },
    });
    expect(
      Skillbook.empty()
        .edit()
        .applyOperation(withEveryField({ type: 'ADD', section: 'harness', issue: 'd' })),
    ).toMatchObject({ ok: true, applied: { skill_id: 'harness-00001' } });
  });

  it('applyOperation - a field given as undefined is a field not given, as in a batch', () => {
    const [a, b] = [Skillbook.empty().edit(), Skillbook.empty().edit()];
    const clock = (): ApplyOptions => ({ clock: tickingClock() });
    const one = a.applyOperation(withEveryField({ type: 'TAG', skill_id: 'harness-00001' }), clock());
    expect(one).toEqual({ ok: true, applied: null, skipped: expect.objectContaining({ code: 'no_skill', opIndex: 0 }) });
    const added = a.applyOperation(withEveryField({ type: 'add', section: ' Harness ', issue: ' x ' }), clock());
    const batched = b.applyBatch({ operations: [{ type: 'add', section: ' Harness ', issue: ' x ' }] }, clock());
    expect(added.ok && added.applied).toEqual(batched.ok && batched.applied[0]);
  });

  it('applyOperation - an allocator that writes to another draft leaves this draft where applyBatch does: revision 6, the new skill at 6', () => {
    const add = (issue: string) => withEveryField({ type: 'ADD', section: 'harness', issue });
    const atRevision5 = (): SkillbookDraft => {
      const draft = Skillbook.empty().edit();
      for (let i = 0; i < 5; i++) draft.applyOperation(add(`old ${i}`), { clock: tickingClock() });
      return draft;
    };
    // each allocation first writes one op to a draft of its own
    const reentrant = (): IdAllocator => {
      const elsewhere = Skillbook.empty().edit();
      return (section) => {
        elsewhere.applyOperation(add('elsewhere'), { clock: tickingClock() });
        return formatSkillId(section, 100 + elsewhere.revision);
      };
    };
    const [single, batched] = [atRevision5(), atRevision5()];
    const one = single.applyOperation(add('new'), { clock: tickingClock(), allocateId: reentrant() });
    const all = batched.applyBatch({ operations: [add('new')] }, { clock: tickingClock(), allocateId: reentrant() });
    expect(one).toMatchObject({ ok: true, applied: { skill_id: 'harness-00101' } });
    expect(all).toMatchObject({ ok: true, applied: [{ skill_id: 'harness-00101' }] });
    expect(batched.revision).toBe(6);
    expect(single.revision).toBe(6);
    expect(single.revisionsOf('harness-00101')).toEqual({ content: 6, active: 6, counters: 6 });
    expect(state(single)).toEqual(state(batched));
  });

  it('applyBatch - an allocator with no id at hand refuses the batch whole (ids_unavailable) and changes nothing', () => {
    const draft = Skillbook.empty().edit();
    draft.applyBatch({ operations: [{ type: 'ADD', section: 'harness', issue: 'kept' }] });
    const before = state(draft);
    let left = 1;
    const allocateId: IdAllocator = (section) => (left-- > 0 ? formatSkillId(section, 50) : null);
    const r = draft.applyBatch(
      {
        operations: [
          { type: 'ADD', section: 'harness', issue: 'a' },
          { type: 'ADD', section: 'harness', issue: 'b' },
        ],
      },
      { allocateId },
    );
    expect(r).toMatchObject({ ok: false, error: { code: 'ids_unavailable', opIndex: 1 } });
    expect(state(draft)).toEqual(before);
    expect(draft.applyOperation(withEveryField({ type: 'ADD', section: 'harness', issue: 'c' }), { allocateId: () => null })).toMatchObject(
      { ok: false, error: { code: 'ids_unavailable', opIndex: 0 } },
    );
    expect(state(draft)).toEqual(before);
  });
});
