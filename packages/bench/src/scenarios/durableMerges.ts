/**
 * Scenario 4, durable merges: a file store under a runtime, 64 committers (root sessions in
 * parallel, each committing one small change after another) on a book of 10,000 skills;
 * throughput of acknowledged, durable merges. Against the naive approach: apply the change
 * in memory, then rewrite the whole JSON document and fsync it, on every merge.
 */
import { closeSync, fsyncSync, openSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import type { Skillbook } from '@cohort/skillbook';
import { aceAdd, aceDocOf, aceTag } from '../baselines/AceBook.ts';
import { buildBook, randomId } from '../books.ts';
import { timedCommitters } from './committers.ts';
import { openFileStore, withTempDir } from '../files.ts';
import { interleave, now, random } from '../measure.ts';
import type { BenchOptions, Scenario, ScenarioReport } from '../Scenario.ts';
import { byMode, rateFigure, ratioRow } from '../Scenario.ts';

const COMMITTERS = 64;

/** `COMMITTERS` root sessions in parallel, `perCommitter` merges each; returns the ms until all are durable (scenario 7 runs it beside PostgreSQL). */
export function fileStoreRun(book: Skillbook, size: number, perCommitter: number, rand: () => number): Promise<number> {
  return withTempDir('durable', async (dir) => {
    const store = await openFileStore(join(dir, 'skillbook.json'), { initialBook: book, idleCheckpointMs: 0 }, 'durable merges');
    return timedCommitters(store, COMMITTERS, perCommitter, size, rand, 'file');
  });
}

/**
 * The naive approach, as ACE saves: `merges` merges, each applied in place to the document
 * object, then the whole document dumped as JSON (`json.dumps(…, indent=2)`), written and fsynced.
 */
function naiveRun(book: Skillbook, size: number, merges: number, rand: () => number): Promise<number> {
  return withTempDir('naive', (dir) => {
    const path = join(dir, 'skillbook.json');
    const doc = aceDocOf(book);
    const t0 = now();
    for (let i = 0; i < merges; i++) {
      aceAdd(doc, 'harness', `naive ${i}`, 'learned');
      aceTag(doc, randomId(size, rand), 'helpful');
      const fd = openSync(path, 'w');
      writeSync(fd, JSON.stringify(doc, null, 2));
      fsyncSync(fd);
      closeSync(fd);
    }
    return now() - t0;
  });
}

/** Scenario 4. */
export const durableMerges: Scenario = {
  id: '4',
  name: 'durable merges',
  async run(options: BenchOptions): Promise<ScenarioReport> {
    const size = byMode(options.mode, { full: 10_000, quick: 10_000, smoke: 300 });
    const perCommitter = byMode(options.mode, { full: 20, quick: 3, smoke: 1 });
    const naiveMerges = byMode(options.mode, { full: 60, quick: 8, smoke: 2 });
    const reps = byMode(options.mode, { full: 3, quick: 2, smoke: 1 });
    options.log(`4 durable merges: ${COMMITTERS} committers × ${perCommitter} merges on ${size} skills; naive: ${naiveMerges} rewrites`);
    const book = buildBook(size);
    const rand = random(40);
    const [cohort = [], naive = []] = await interleave(
      [() => fileStoreRun(book, size, perCommitter, rand), () => naiveRun(book, size, naiveMerges, rand)],
      { warmup: options.mode === 'smoke' ? 0 : 1, reps },
    );
    const c = rateFigure(cohort, COMMITTERS * perCommitter, 'merges/s', `file store, ${COMMITTERS} committers`);
    const n = rateFigure(naive, naiveMerges, 'merges/s', 'rewrite + fsync');
    return {
      rows: [
        ratioRow(
          '4',
          `durable merges on ${size / 1000}k skills, vs rewrite + fsync per merge`,
          c,
          n,
          c.value / n.value,
          { kind: 'at-least', value: 50, text: '≥ 50×' },
          { committers: COMMITTERS, perCommitter, naiveMerges, reps },
        ),
      ],
    };
  },
};
