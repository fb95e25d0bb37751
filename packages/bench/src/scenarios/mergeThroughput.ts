/**
 * Scenario 3, merge throughput: commits per second into one parent session, with 1, 10
 * and 100 ops per commit, against a plain loop of `applyBatch` calls (no actors, no merge queue).
 *
 * What is timed on the Cohort side is the commit path: a round of sessions that have each
 * written their ops (`s.applyBatch`, one batch) is released at once; each body returns, the
 * session drains and commits; its parent merges the commits one at a time as they arrive
 * (conflict check and replay into its draft) and acknowledges them; the round ends when every
 * session has settled. Spawning and writing happen before the clock
 * starts. The baseline applies the same batches to a book value, one after another.
 */
import { createRuntime } from '@cohort/runtime';
import type { Session } from '@cohort/runtime';
import type { Skillbook } from '@cohort/skillbook';
import { buildBook, randomId } from '../books.ts';
import { interleave, now, random } from '../measure.ts';
import { driveRoot } from '../rootDriver.ts';
import type { BenchOptions, BenchRow, Scenario, ScenarioReport } from '../Scenario.ts';
import { byMode, rateFigure, ratioRow } from '../Scenario.ts';

const BOOK = 1_000;

/** `k` ops: ADDs of new skills and TAGs of existing ones, alternating (TAGs never conflict). */
function batchOf(k: number, rand: () => number, tag: string): { operations: object[] } {
  const operations: object[] = [];
  for (let i = 0; i < k; i++) {
    operations.push(
      i % 2 === 0
        ? { type: 'ADD', section: 'harness', issue: `${tag} ${i}`, insight: 'learned' }
        : { type: 'TAG', skill_id: randomId(BOOK, rand), metadata: { delta: 1 } },
    );
  }
  return { operations };
}

/** One round on the Cohort side: `sessions` children write, then commit together; returns the commit phase's ms. */
async function cohortRound(root: Session, sessions: number, k: number, rand: () => number): Promise<number> {
  let ready = 0;
  let allReady!: () => void;
  const written = new Promise<void>((resolve) => (allReady = resolve));
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const outcomes = Array.from({ length: sessions }, (_, i) =>
    root.spawn(async (s) => {
      const batch = batchOf(k, rand, `c${i}`);
      let r = s.applyBatch(batch);
      // a burst of ADDs can outrun the runtime's id lease: the next one comes after an await
      while (!r.ok && r.error.code === 'ids_unavailable') {
        await new Promise((resolve) => setImmediate(resolve));
        r = s.applyBatch(batch);
      }
      if (!r.ok) throw new Error(r.error.message);
      if (++ready === sessions) allReady();
      await gate;
    }),
  );
  await written;
  const t0 = now();
  release();
  const settled = await Promise.all(outcomes);
  const ms = now() - t0;
  const failed = settled.find((o) => o.status !== 'committed');
  if (failed && failed.status === 'failed') throw new Error(`merge throughput: a commit failed: ${failed.failure.message}`);
  return ms;
}

/** One round of the baseline: the same number of batches, applied one after another to a book value. */
function baselineRound(state: { book: Skillbook }, sessions: number, k: number, rand: () => number): number {
  const batches = Array.from({ length: sessions }, (_, i) => batchOf(k, rand, `b${i}`));
  const t0 = now();
  for (const batch of batches) {
    const r = state.book.applyBatch(batch);
    if (!r.ok) throw new Error(r.error.message);
    state.book = r.book;
  }
  return now() - t0;
}

/** Scenario 3. */
export const mergeThroughput: Scenario = {
  id: '3',
  name: 'merge throughput',
  async run(options: BenchOptions): Promise<ScenarioReport> {
    const sessions = options.mode === 'smoke' ? 5 : 100;
    const rounds = byMode(options.mode, { full: 20, quick: 3, smoke: 1 });
    const rows: BenchRow[] = [];
    // a book is a value: the runtime and the baseline start from the same one, built once
    const book = buildBook(BOOK);
    for (const k of [1, 10, 100]) {
      options.log(`3 merge throughput: ${rounds} rounds of ${sessions} commits of ${k} op(s)`);
      const rt = createRuntime({ book });
      const driver = driveRoot(rt);
      const rand = random(30 + k);
      const state = { book };
      const [cohort = [], baseline = []] = await interleave(
        [() => driver.exec((root) => cohortRound(root, sessions, k, rand)), async () => baselineRound(state, sessions, k, rand)],
        { warmup: byMode(options.mode, { full: 2, quick: 1, smoke: 0 }), reps: rounds },
      );
      await driver.finish();
      await rt.close();
      const c = rateFigure(cohort, sessions, 'commits/s', 'into the parent');
      const b = rateFigure(baseline, sessions, 'commits/s', 'applyBatch loop');
      const target = k === 10 ? ({ kind: 'at-most', value: 2, text: '≤ 2× the cost' } as const) : ({ kind: 'info', text: 'info' } as const);
      rows.push(
        ratioRow(
          `3${'abc'[[1, 10, 100].indexOf(k)]}`,
          `merge throughput, ${k} op${k > 1 ? 's' : ''} per commit (cost ratio)`,
          c,
          b,
          b.value / c.value,
          target,
          { sessions, rounds, opsPerCommit: k },
        ),
      );
    }
    return { rows };
  },
};
