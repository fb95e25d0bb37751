/**
 * Scenario 7, durable merges on PostgreSQL: a PostgresStore under runtimes, 64 committers
 * (root sessions in parallel, each committing one small change after another) on a book of
 * 10,000 skills — in one process, and in four processes of 16 committers on the same
 * database; throughput of acknowledged merges (each after its COMMIT returned). Against the
 * naive way: one transaction per merge rewriting the whole JSON document, from 64 committers;
 * and beside the file store (scenario 4's run, timed in the same interleave).
 */
import { createRuntime } from '@cohort/runtime';
import type { Skillbook } from '@cohort/skillbook';
import { describeOpenError } from '@cohort/store';
import { PostgresStore } from '@cohort/store-postgres';
import { buildBook } from '../books.ts';
import { interleave, now, random } from '../measure.ts';
import type { BenchOptions, Scenario, ScenarioReport } from '../Scenario.ts';
import { byMode, rateFigure, ratioRow } from '../Scenario.ts';
import { fileStoreRun } from './durableMerges.ts';
import { PG_URL, committers, manyProcesses, naiveRun, withPgStore } from './pgMerges.ts';

const COMMITTERS = 64;
const PROCESSES = 4;

/** `COMMITTERS` root sessions of one runtime, `perCommitter` merges each; the ms until all are durable. */
function oneProcess(book: Skillbook, size: number, perCommitter: number, rand: () => number): Promise<number> {
  return withPgStore(book, async (schema) => {
    const opened = await PostgresStore.open({ url: PG_URL, schema });
    if (!opened.ok) throw new Error(`pg durable merges: ${describeOpenError(opened.error)}`);
    const rt = createRuntime({ store: opened.store });
    await rt.ready;
    const t0 = now();
    await committers(rt, COMMITTERS, perCommitter, size, rand, 'one');
    const ms = now() - t0;
    await rt.close();
    return ms;
  });
}

/** Scenario 7. */
export const pgDurableMerges: Scenario = {
  id: '7',
  name: 'durable merges on PostgreSQL',
  async run(options: BenchOptions): Promise<ScenarioReport> {
    const size = byMode(options.mode, { full: 10_000, quick: 10_000, smoke: 300 });
    const perCommitter = byMode(options.mode, { full: 10, quick: 3, smoke: 1 });
    const naivePer = 1;
    // each naive merge rewrites the 10k-skill document (a few a second): --quick times fewer of them
    const naiveCommitters = byMode(options.mode, { full: COMMITTERS, quick: 8, smoke: 2 });
    const reps = byMode(options.mode, { full: 3, quick: 2, smoke: 1 });
    options.log(
      `7 durable merges on PostgreSQL: ${COMMITTERS} committers × ${perCommitter} merges on ${size} skills, in 1 and ${PROCESSES} processes; naive: ${naiveCommitters} × ${naivePer} document rewrites`,
    );
    const book = buildBook(size);
    const rand = random(70);
    const [one = [], many = [], naive = [], file = []] = await interleave(
      [
        () => oneProcess(book, size, perCommitter, rand),
        () => withPgStore(book, (schema) => manyProcesses(schema, PROCESSES, { committers: COMMITTERS / PROCESSES, perCommitter, size })),
        () => naiveRun(book, size, naiveCommitters, naivePer, rand),
        () => fileStoreRun(book, size, perCommitter, rand),
      ],
      { warmup: options.mode === 'smoke' ? 0 : 1, reps },
    );
    const merges = COMMITTERS * perCommitter;
    const a = rateFigure(one, merges, 'merges/s', `${COMMITTERS} committers, 1 process`);
    const b = rateFigure(many, merges, 'merges/s', `${COMMITTERS} committers, ${PROCESSES} processes`);
    const n = rateFigure(naive, naiveCommitters * naivePer, 'merges/s', 'rewrite the JSON document per transaction');
    const f = rateFigure(file, merges, 'merges/s', `file store, ${COMMITTERS} committers`);
    const detail = { committers: COMMITTERS, processes: PROCESSES, perCommitter, naiveCommitters, naivePer, size, reps };
    return {
      rows: [
        ratioRow(
          '7a',
          `PostgreSQL durable merges on ${size / 1000}k skills, 1 process, vs a document rewrite per transaction`,
          a,
          n,
          a.value / n.value,
          { kind: 'at-least', value: 10, text: '≥ 10×' },
          detail,
        ),
        ratioRow(
          '7b',
          `PostgreSQL durable merges on ${size / 1000}k skills, ${PROCESSES} processes, vs a document rewrite per transaction`,
          b,
          n,
          b.value / n.value,
          { kind: 'at-least', value: 10, text: '≥ 10×' },
          detail,
        ),
        ratioRow(
          '7c',
          `PostgreSQL durable merges (1 process) beside the file store`,
          a,
          f,
          a.value / f.value,
          { kind: 'info', text: 'info' },
          detail,
        ),
      ],
    };
  },
};
