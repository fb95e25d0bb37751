/**
 * Scenario 1, spawn isolation: one child session spawned on a book of n skills, 10 tool calls
 * (4 add, 3 update, 2 tag, 1 remove on random skills), its commit merged into the parent.
 * Cohort gives the child its parent's book by reference; the baseline gives it a deep copy
 * (`structuredClone`, the fix ACE adopted) and merges the touched skills back.
 */
import { createRuntime } from '@cohort/runtime';
import type { Session } from '@cohort/runtime';
import type { AceDoc } from '../baselines/AceBook.ts';
import { aceAdd, aceDocOf, aceMergeBack, aceRemove, aceTag, aceUpdate } from '../baselines/AceBook.ts';
import { buildBook, randomId } from '../books.ts';
import { interleave, median, now, random } from '../measure.ts';
import { driveRoot } from '../rootDriver.ts';
import type { Run } from '../measure.ts';
import type { BenchOptions, Scenario, ScenarioReport } from '../Scenario.ts';
import { byMode, medianFigure, ratioRow } from '../Scenario.ts';

/** The child: ten tool calls, as an agent makes them. */
async function tenOps(s: Session, size: number, rand: () => number): Promise<void> {
  for (let i = 0; i < 4; i++) await s.tools.add_skill({ section: i % 2 ? 'harness' : 'context', issue: `new ${i}`, insight: 'learned' });
  for (let i = 0; i < 3; i++) await s.tools.update_skill({ skill_id: randomId(size, rand), insight: `revised ${i}` });
  await s.tools.tag_skill({ skill_id: randomId(size, rand), tag: 'helpful' });
  await s.tools.tag_skill({ skill_id: randomId(size, rand), tag: 'harmful' });
  await s.tools.remove_skill({ skill_id: randomId(size, rand), reason: 'superseded' });
}

/** The same ten ops on a deep copy, merged back last-writer-wins. */
function tenOpsOnCopy(parent: AceDoc, size: number, rand: () => number): void {
  const copy = structuredClone(parent);
  const touched: string[] = [];
  for (let i = 0; i < 4; i++) touched.push(aceAdd(copy, i % 2 ? 'harness' : 'context', `new ${i}`, 'learned'));
  for (let i = 0; i < 3; i++) {
    const id = randomId(size, rand);
    if (aceUpdate(copy, id, { insight: `revised ${i}` })) touched.push(id);
  }
  for (const tag of ['helpful', 'harmful'] as const) {
    const id = randomId(size, rand);
    if (aceTag(copy, id, tag)) touched.push(id);
  }
  const removed = randomId(size, rand);
  if (aceRemove(copy, removed)) touched.push(removed);
  aceMergeBack(parent, copy, touched);
}

interface Sized {
  readonly size: number;
  readonly cohort: Run;
  readonly baseline: Run;
  readonly close: () => Promise<void>;
}

function setUp(size: number, seed: number): Sized {
  const book = buildBook(size);
  const rt = createRuntime({ book });
  const driver = driveRoot(rt);
  const rand = random(seed);
  const doc = aceDocOf(book);
  return {
    size,
    cohort: () =>
      driver.exec(async (root) => {
        const t0 = now();
        const outcome = await root.spawn((s) => tenOps(s, size, rand));
        const ms = now() - t0;
        if (outcome.status !== 'committed') throw new Error(`spawn isolation: the child failed: ${outcome.failure.message}`);
        return ms;
      }),
    baseline: async () => {
      const t0 = now();
      tenOpsOnCopy(doc, size, rand);
      return now() - t0;
    },
    close: async () => {
      await driver.finish();
      await rt.close();
    },
  };
}

/** Scenario 1. */
export const spawnIsolation: Scenario = {
  id: '1',
  name: 'spawn isolation',
  async run(options: BenchOptions): Promise<ScenarioReport> {
    const sizes = byMode(options.mode, { full: [1_000, 10_000, 100_000], quick: [1_000, 10_000], smoke: [200, 1_000] });
    const reps = byMode(options.mode, { full: 200, quick: 30, smoke: 2 });
    options.log(`1 spawn isolation: building books of ${sizes.join(', ')} skills`);
    const setups = sizes.map((size, i) => setUp(size, 11 + i));
    // deep copies of a 100,000-skill book take long: fewer of them, alternated across the sizes
    // (after Cohort's runs, not between them: at ratios in the thousands, drift does not matter)
    const copyReps = byMode(options.mode, { full: 15, quick: 5, smoke: 1 });
    options.log(`1 spawn isolation: ${reps} children per book, ${copyReps} deep copies`);
    const cohort = await interleave(
      setups.map((s) => s.cohort),
      { warmup: Math.ceil(reps / 10), reps, gc: false },
    );
    const copies = await interleave(
      setups.map((s) => s.baseline),
      { warmup: 1, reps: copyReps, gc: true },
    );
    for (const s of setups) await s.close();
    const figure = (i: number) => medianFigure(cohort[i] ?? [], 'ms', `${(sizes[i] ?? 0) / 1000}k skills`);
    const copyFigure = (i: number) => medianFigure(copies[i] ?? [], 'ms', `deep copy, ${(sizes[i] ?? 0) / 1000}k`);
    const small = figure(0);
    const large = figure(sizes.length - 1);
    const largeCopy = copyFigure(sizes.length - 1);
    const detail = {
      sizes,
      reps,
      copyReps,
      cohortMs: sizes.map((_, i) => median(cohort[i] ?? [])),
      copyMs: sizes.map((_, i) => median(copies[i] ?? [])),
    };
    const k = (n: number) => `${n / 1000}k`;
    const top = k(sizes[sizes.length - 1] ?? 0);
    const rows = [
      ratioRow(
        '1a',
        `spawn → 10 ops → commit, ${top} vs 1k skills`,
        large,
        small,
        large.value / small.value,
        { kind: 'at-most', value: 1.5, text: '≤ 1.5×' },
        detail,
      ),
      ratioRow('1b', `spawn → 10 ops → commit at ${top}, vs deep copy`, large, largeCopy, largeCopy.value / large.value, {
        kind: 'at-least',
        value: 50,
        text: '≥ 50× faster',
      }),
    ];
    if (sizes.length > 2) {
      rows.push(
        ratioRow(
          '1c',
          `spawn → 10 ops → commit at ${k(sizes[1] ?? 0)}, vs deep copy`,
          figure(1),
          copyFigure(1),
          copyFigure(1).value / figure(1).value,
          { kind: 'info', text: 'info' },
        ),
      );
    }
    return { rows };
  },
};
