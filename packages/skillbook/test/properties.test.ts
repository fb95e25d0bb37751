import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Skillbook } from '../src/index.ts';
import type { AppliedOp, Skill, SkillbookDraft } from '../src/index.ts';
import { ID_POOL, book, history, rawBatch, tickingClock } from './utils/arbitraries.ts';

function everySkillRevisions(b: Skillbook): unknown[] {
  return [...b.skills()].map((s) => [s.id, b.revisionsOf(s.id)]);
}

function isDeepFrozen(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return true;
  if (!Object.isFrozen(value)) return false;
  return Object.values(value).every(isDeepFrozen);
}

/** A change another writer made meanwhile to a skill a commit touched. */
const meanwhile = fc.constantFrom(
  { type: 'UPDATE', insight: 'changed meanwhile' },
  { type: 'UPDATE', issue: 'moved on', keywords: ['moved'] },
  { type: 'TAG', metadata: { delta: 1 } },
  { type: 'REMOVE' },
  { type: 'ADD', section: 'harness', issue: 'took the id' },
);

/** A few such changes, each to the skill at some index of a list. */
const picks = fc.array(fc.tuple(fc.nat(), meanwhile), { maxLength: 4 });

describe('Skillbook laws (fast-check)', () => {
  it('replay - replaying the applied ops on the old book gives the new book, byte for byte', () => {
    fc.assert(
      fc.property(book, rawBatch, (old, batch) => {
        const result = old.applyBatch(batch, { clock: tickingClock(Date.UTC(2027, 0, 1)) });
        if (!result.ok) return;
        const replayed = old.replay(result.applied);
        expect(replayed.ok).toBe(true);
        if (!replayed.ok) return;
        expect(replayed.book.toJSON()).toBe(result.book.toJSON());
        expect(replayed.book.revision).toBe(result.book.revision);
        expect(everySkillRevisions(replayed.book)).toEqual(everySkillRevisions(result.book));
        expect(replayed.applied).toEqual(result.applied);
        expect(replayed.skipped).toEqual([]);
      }),
    );
  });

  it('replay - the applied ops survive a trip through JSON', () => {
    fc.assert(
      fc.property(book, rawBatch, (old, batch) => {
        const result = old.applyBatch(batch);
        if (!result.ok) return;
        const replayed = old.replay(JSON.parse(JSON.stringify(result.applied)) as typeof result.applied);
        expect(replayed.ok && replayed.book.toJSON()).toBe(result.book.toJSON());
      }),
    );
  });

  it('replay - reusing what an op did the first time gives what applying it again gives, on a book that moved on', () => {
    fc.assert(
      fc.property(book, rawBatch, rawBatch, picks, picks, (start, mine, theirs, ours, picked) => {
        const clock = tickingClock(Date.UTC(2027, 0, 1));
        const old = start.applyBatch({ operations: [{ type: 'ADD', section: 'context', issue: 'seed', insight: 'kept' }] }, { clock }).book;
        const ids = [...old.skills()].map((s) => s.id);
        // the commit: changes to skills the book has, and a random batch (alone when it is refused)
        const targeted = ours.map(([i, op]) => ({ ...op, skill_id: ids[i % ids.length] }));
        const both = old.applyBatch({ operations: [...targeted, ...mine.operations] }, { clock });
        const result = both.ok ? both : old.applyBatch({ operations: targeted }, { clock });
        if (!result.ok || result.applied.length === 0) return;
        // the target has changed some of the skills the ops found (then applied in full), not others (reused)
        const touched = picked.map(([i, op]) => ({ ...op, skill_id: result.applied[i % result.applied.length]?.skill_id }));
        const moved = old.applyBatch({ operations: touched }, { clock }).book;
        const target = moved.applyBatch(theirs, { clock }).book;
        const reused = target.replay(result.applied);
        const full = target.replay(JSON.parse(JSON.stringify(result.applied)) as typeof result.applied);
        if (!full.ok || !reused.ok) {
          expect(reused.ok ? null : reused.error).toEqual(full.ok ? null : full.error);
          return;
        }
        expect(reused.book.toJSON()).toBe(full.book.toJSON());
        expect(reused.book.revision).toBe(full.book.revision);
        expect(reused.book.nextId).toBe(full.book.nextId);
        expect(reused.book.stats()).toEqual(full.book.stats());
        expect(everySkillRevisions(reused.book)).toEqual(everySkillRevisions(full.book));
        expect(reused.applied).toEqual(full.applied);
        expect(reused.skipped).toEqual(full.skipped);
        // and again on a draft, where a skill can come from the draft's own journal
        const draft = target.edit();
        const twice = [draft.replay(result.applied), draft.replay(result.applied)];
        const fullDraft = target.edit();
        const fullTwice = [
          fullDraft.replay(JSON.parse(JSON.stringify(result.applied)) as typeof result.applied),
          fullDraft.replay(JSON.parse(JSON.stringify(result.applied)) as typeof result.applied),
        ];
        expect(twice.map((r) => r.ok && r.applied.length)).toEqual(fullTwice.map((r) => r.ok && r.applied.length));
        expect(draft.finish().toJSON()).toBe(fullDraft.finish().toJSON());
      }),
      { numRuns: 300 },
    );
  });

  it('draft - batches finished together give the book they give one by one: document, prompt, revisions, next_id', () => {
    fc.assert(
      fc.property(book, fc.array(rawBatch, { maxLength: 8 }), (old, batches) => {
        const [a, b] = [tickingClock(Date.UTC(2027, 0, 1)), tickingClock(Date.UTC(2027, 0, 1))];
        const draft = old.edit();
        let each = old;
        for (const batch of batches) {
          draft.applyBatch(batch, { clock: a });
          each = each.applyBatch(batch, { clock: b }).book;
        }
        const finished = draft.finish();
        expect(finished.toJSON()).toBe(each.toJSON());
        expect(finished.asPrompt()).toBe(each.asPrompt());
        expect([finished.revision, finished.nextId, finished.size]).toEqual([each.revision, each.nextId, each.size]);
        expect(everySkillRevisions(finished)).toEqual(everySkillRevisions(each));
        expect(Skillbook.fromSnapshot(finished.toSnapshot()).ok).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it('rejection - a rejected batch leaves the book byte-identical and returns the same instance', () => {
    fc.assert(
      fc.property(book, rawBatch, (old, batch) => {
        const before = old.toJSON();
        const result = old.applyBatch(batch);
        if (result.ok) return;
        expect(result.book).toBe(old);
        expect(old.toJSON()).toBe(before);
        expect(result.error.opIndex).toBeTypeOf('number');
      }),
    );
  });

  it('rejection - a batch or a replay a draft rejects leaves the draft as it was, its earlier writes included', () => {
    const state = (d: SkillbookDraft) => [...d.skills()].map((s) => [s, d.revisionsOf(s.id)]);
    fc.assert(
      fc.property(book, rawBatch, rawBatch, (old, first, batch) => {
        const clock = tickingClock(Date.UTC(2027, 0, 1));
        const draft = old.edit();
        // a first batch gives the draft a journal of its own, which later runs write into in place
        draft.applyBatch(first, { clock });
        let before = state(draft);
        if (draft.applyBatch(batch, { clock }).ok) before = state(draft);
        else expect(state(draft)).toEqual(before);
        // a replay whose last op fails after the others wrote: TAGs of the draft's skills, then a duplicate ADD
        const at = '2027-01-01T00:00:00.000000+00:00';
        const skills = before.map(([skill]) => skill as Skill);
        const last = skills.at(-1);
        if (!last) return;
        const tags = skills.map((s) => ({ type: 'TAG', section: s.section, skill_id: s.id, metadata: { delta: 1 }, at }));
        const dup = { type: 'ADD', section: last.section, skill_id: last.id, issue: 'again', at };
        const failed = draft.replay([...tags, dup] as AppliedOp[]);
        expect(failed.ok).toBe(false);
        expect(state(draft)).toEqual(before);
      }),
      { numRuns: 300 },
    );
  });

  it('rejection - a batch a draft rejects after some of its ops wrote in place leaves no entry behind: not in get, not in the finished book', () => {
    fc.assert(
      fc.property(book, rawBatch, rawBatch, (old, first, batch) => {
        const clock = (): { clock: ReturnType<typeof tickingClock> } => ({ clock: tickingClock(Date.UTC(2027, 0, 1)) });
        const [refused, kept] = [old.edit(), old.edit()];
        // a journal of their own first, so that the refused batch writes in place before it fails
        const a = refused.applyBatch({ operations: [{ type: 'ADD', section: 'harness', issue: 'journal' }, ...first.operations] }, clock());
        kept.applyBatch({ operations: [{ type: 'ADD', section: 'harness', issue: 'journal' }, ...first.operations] }, clock());
        if (!a.ok || a.applied.length === 0) return;
        // the batch's ops, then one the rules refuse (a context skill needs an insight): ADDs named and allocated are written before it
        const named = ID_POOL.map((id) => ({ type: 'ADD', section: 'harness', issue: 'named', skill_id: `${id}-new` }));
        const last = [
          { type: 'ADD', section: 'harness', issue: 'n' },
          { type: 'ADD', section: 'context', issue: 'no insight' },
        ];
        const result = refused.applyBatch({ operations: [...batch.operations, ...named, ...last] }, clock());
        expect(result.ok).toBe(false);
        for (const id of [...ID_POOL.map((p) => `${p}-new`), `harness-${String(refused.nextId + 1).padStart(5, '0')}`])
          expect(refused.get(id)).toBeUndefined();
        expect(refused.revision).toBe(kept.revision);
        expect(refused.finish().toJSON()).toBe(kept.finish().toJSON());
      }),
      { numRuns: 200 },
    );
  });

  it('revision - a batch that applies something bumps the revision by one, otherwise nothing changes', () => {
    fc.assert(
      fc.property(book, rawBatch, (old, batch) => {
        const result = old.applyBatch(batch);
        if (!result.ok) return;
        if (result.applied.length === 0) expect(result.book).toBe(old);
        else expect(result.book.revision).toBe(old.revision + 1);
        for (const op of result.applied) {
          const rev = result.book.revisionsOf(op.skill_id);
          expect(rev && Math.max(rev.content, rev.active, rev.counters) <= result.book.revision).toBe(true);
        }
      }),
    );
  });

  it('round trip - fromJSON(toJSON(b)) equals b', () => {
    fc.assert(
      fc.property(book, (b) => {
        const text = b.toJSON();
        const again = Skillbook.fromJSON(text);
        expect(again.toJSON()).toBe(text);
        expect(again.asPrompt()).toBe(b.asPrompt());
        expect(again.stats()).toEqual(b.stats());
        expect([...again.skills()]).toEqual([...b.skills()]);
        expect(again.nextId).toBe(b.nextId);
      }),
    );
  });

  it('immutability - old values never change and every skill is deep-frozen', () => {
    fc.assert(
      fc.property(fc.array(rawBatch, { maxLength: 8 }), (batches) => {
        const clock = tickingClock();
        const books = [Skillbook.empty()];
        const texts = [books[0]?.toJSON()];
        const skills: Skill[][] = [[]];
        for (const batch of batches) {
          const next = (books[books.length - 1] as Skillbook).applyBatch(batch, { clock }).book;
          books.push(next);
          texts.push(next.toJSON());
          skills.push([...next.skills()]);
        }
        books.forEach((b, i) => {
          expect(Object.isFrozen(b)).toBe(true);
          expect(b.toJSON()).toBe(texts[i]);
          expect([...b.skills()]).toEqual(skills[i]);
          for (const s of b.skills()) expect(isDeepFrozen(s)).toBe(true);
        });
      }),
    );
  });

  it('ids - next_id never falls below the numeric suffix of any skill id', () => {
    fc.assert(
      fc.property(fc.array(rawBatch, { maxLength: 6 }), (batches) => {
        for (const b of history(batches)) {
          for (const s of b.skills()) {
            const m = /^[A-Za-z_]+-([0-9]+)$/.exec(s.id);
            if (m) expect(b.nextId).toBeGreaterThanOrEqual(Number(m[1]));
          }
        }
      }),
    );
  });
});
