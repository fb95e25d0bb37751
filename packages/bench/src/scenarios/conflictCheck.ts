/**
 * Scenario 6, conflict check: what a supervisor pays per op to check a commit against what
 * changed since its base revision (`book.conflicts(ops, base)`), on books of 1,000 and
 * 100,000 skills. The check looks each op's target up in the book (a hash trie), so its cost
 * per op must not grow with the book. Also, for information, the skillbook's batch cost.
 */
import type { AppliedOp, Skillbook } from '@cohort/skillbook';
import { buildBook, fixedClock, randomId } from '../books.ts';
import { interleave, now, random } from '../measure.ts';
import type { BenchOptions, Figure, Scenario, ScenarioReport } from '../Scenario.ts';
import { byMode, medianFigure, ratioRow } from '../Scenario.ts';
import { measureSkillbookBatch } from '../skillbookBatch.ts';

/** A commit's worth of applied ops on random skills of a `size`-skill book: updates, removes, tags and adds. */
function commitOps(book: Skillbook, size: number, count: number, rand: () => number): AppliedOp[] {
  const operations = Array.from({ length: count }, (_, i) => {
    const id = randomId(size, rand);
    switch (i % 4) {
      case 0:
        return { type: 'UPDATE', skill_id: id, insight: `revised ${i}` };
      case 1:
        return { type: 'TAG', skill_id: id, metadata: { delta: 1 } };
      case 2:
        return { type: 'REMOVE', skill_id: id };
      default:
        return { type: 'ADD', section: 'harness', issue: `new ${i}`, insight: 'learned' };
    }
  });
  const r = book.applyBatch({ operations }, { clock: fixedClock });
  if (!r.ok) throw new Error(`conflict check: ${r.error.message}`);
  return r.applied;
}

/** Scenario 6. */
export const conflictCheck: Scenario = {
  id: '6',
  name: 'conflict check',
  async run(options: BenchOptions): Promise<ScenarioReport> {
    const sizes = byMode(options.mode, { full: [1_000, 100_000], quick: [1_000, 10_000], smoke: [200, 1_000] });
    const reps = byMode(options.mode, { full: 400, quick: 100, smoke: 3 });
    const opsPerCheck = 100;
    options.log(`6 conflict check: ${reps} checks of ${opsPerCheck} ops on books of ${sizes.join(' and ')} skills`);
    const rand = random(60);
    const books = sizes.map((size) => {
      const base = buildBook(size);
      // the book the check runs on has moved on since the commit's base: a few of the ops conflict
      const later = base.applyBatch(
        { operations: Array.from({ length: 50 }, () => ({ type: 'UPDATE', skill_id: randomId(size, rand), issue: 'changed meanwhile' })) },
        { clock: fixedClock },
      );
      if (!later.ok) throw new Error(later.error.message);
      return { size, base, later: later.book };
    });
    const check = (later: Skillbook, base: Skillbook, ops: readonly AppliedOp[]): number => {
      const t0 = now();
      later.conflicts(ops, base.revision);
      return ((now() - t0) * 1000) / ops.length;
    };
    // as a supervisor meets a commit: its session has just read and written those skills
    const fresh = books.map(
      ({ size, base, later }) =>
        async () =>
          check(later, base, commitOps(base, size, opsPerCheck, rand)),
    );
    // for information: commits made long before, their skills out of the CPU caches of a large book
    const cold = books.map(({ size, base, later }) => {
      const commits = Array.from({ length: 64 }, () => commitOps(base, size, opsPerCheck, rand));
      let i = 0;
      return async () => check(later, base, commits[i++ % commits.length] ?? []);
    });
    const [small = [], large = []] = await interleave(fresh, { warmup: 10, reps, gc: false });
    const [coldSmall = [], coldLarge = []] = await interleave(cold, { warmup: 10, reps, gc: false });
    const k = (n: number) => `${n / 1000}k skills`;
    const figure = (samples: number[], size: number): Figure => medianFigure(samples, 'µs/op', k(size));
    const s = figure(small, sizes[0] ?? 0);
    const l = figure(large, sizes[1] ?? 0);
    const cs = figure(coldSmall, sizes[0] ?? 0);
    const cl = figure(coldLarge, sizes[1] ?? 0);
    options.log('6 conflict check: and the skillbook batch cost (10-op batch on a book value)');
    const [b1, b2] = measureSkillbookBatch({
      books: books.map((b) => b.base),
      ...byMode(options.mode, { full: { warmup: 300, reps: 2_000 }, quick: { warmup: 100, reps: 400 }, smoke: { warmup: 1, reps: 10 } }),
    });
    const batch = (c: typeof b1): Figure => ({ value: c?.medianMs ?? Number.NaN, unit: 'ms', label: k(c?.size ?? 0) });
    const top = k(sizes[1] ?? 0).replace(' skills', '');
    return {
      rows: [
        ratioRow(
          '6',
          `conflict check per op, ${top} vs 1k skills`,
          l,
          s,
          l.value / s.value,
          { kind: 'at-most', value: 1.5, text: '≤ 1.5×' },
          { sizes, reps, opsPerCheck },
        ),
        ratioRow('6c', `conflict check per op, ${top} vs 1k, cold (info)`, cl, cs, cl.value / cs.value, { kind: 'info', text: 'info' }),
        ratioRow(
          '6i',
          `skillbook 10-op applyBatch, ${top} vs 1k skills`,
          batch(b2),
          batch(b1),
          (b2?.medianMs ?? Number.NaN) / (b1?.medianMs ?? Number.NaN),
          { kind: 'at-most', value: 3, text: '≤ 3× (docs)' },
        ),
      ],
    };
  },
};
