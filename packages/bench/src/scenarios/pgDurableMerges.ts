/**
 * Scenario 7, durable merges on PostgreSQL: 64 committers (root sessions in parallel, each
 * committing one small change after another) on a book of 10,000 skills, acknowledged only
 * after their COMMIT returned — in one process, and spread over 2, 4 and 8 processes on the
 * same database (the replicas' curve). Against the naive way (one transaction per merge
 * rewriting the whole JSON document), against the ceiling of a durable commit per transaction
 * here (`pgbench`, 64 clients each updating one row), and beside the file store, in one
 * process and in two sharing one file. Every run is timed in the same interleave. And what
 * each replica costs beside the one that commits: the processor time per merge of processes
 * that only follow the book, against the committing process's (why more processes on one
 * machine's cores do not make more merges).
 */
import { join } from 'node:path';
import type { Skillbook } from '@cohort/skillbook';
import { buildBook } from '../books.ts';
import { openFileStore, withTempDir } from '../files.ts';
import { interleave, random } from '../measure.ts';
import type { BenchOptions, Figure, Scenario, ScenarioReport } from '../Scenario.ts';
import { byMode, medianFigure, rateFigure, ratioRow, unrankedRow } from '../Scenario.ts';
import type { CommitterOptions } from './committerMain.ts';
import { followedProcesses, manyProcesses } from './committers.ts';
import type { FollowerCost } from './committers.ts';
import { withPgbench } from './pgbench.ts';
import { PG_URL, naiveRun, withPgStore } from './pgMerges.ts';

const COMMITTERS = 64;
/** The processes of the replicas' curve; the target is on `TARGET_PROCESSES`. */
const CURVE = [2, 4, 8] as const;
const TARGET_PROCESSES = 4;
/** The replicas beside the committing process when a follower's cost is measured (as many as its peers at `TARGET_PROCESSES`). */
const FOLLOWERS = TARGET_PROCESSES - 1;
const CURVE_ROWS = { 2: '7d', 4: '7e', 8: '7f' } as const;

/** What each committer does: its merges, on a book of `size` skills, after `warmUp` in memory. */
type Work = Omit<CommitterOptions, 'store' | 'committers' | 'seed' | 'tag'>;

/** `COMMITTERS` spread over `processes` processes on one PostgreSQL schema. */
function pgProcesses(book: Skillbook, processes: number, work: Work): Promise<number> {
  return withPgStore(book, (schema) =>
    manyProcesses({ kind: 'pg', url: PG_URL, schema }, processes, { committers: COMMITTERS / processes, ...work }),
  );
}

/** `COMMITTERS` spread over `processes` processes sharing one file store. */
function fileProcesses(book: Skillbook, processes: number, work: Work): Promise<number> {
  return withTempDir('shared', async (dir) => {
    const path = join(dir, 'skillbook.json');
    const store = await openFileStore(path, { initialBook: book, idleCheckpointMs: 0 }, 'file durable merges');
    await store.close();
    return manyProcesses({ kind: 'file', path }, processes, { committers: COMMITTERS / processes, ...work });
  });
}

/** One committing process (`COMMITTERS` committers) and `FOLLOWERS` processes following the book, on one PostgreSQL schema. */
function followedCost(book: Skillbook, work: Work): Promise<FollowerCost> {
  return withPgStore(book, (schema) =>
    followedProcesses({ kind: 'pg', url: PG_URL, schema }, FOLLOWERS, { committers: COMMITTERS, ...work }),
  );
}

/** Scenario 7. */
export const pgDurableMerges: Scenario = {
  id: '7',
  name: 'durable merges on PostgreSQL',
  async run(options: BenchOptions): Promise<ScenarioReport> {
    const size = byMode(options.mode, { full: 10_000, quick: 10_000, smoke: 300 });
    // as many merges per committer as pgbench's transactions per client: a run long enough that
    // the first group and the processes' start do not weigh in it
    const perCommitter = byMode(options.mode, { full: 40, quick: 3, smoke: 1 });
    const work: Work = { perCommitter, size, warmUp: byMode(options.mode, { full: 20, quick: 0, smoke: 0 }) };
    // each naive merge rewrites the 10k-skill document (a few a second): --quick times fewer of them
    const naiveCommitters = byMode(options.mode, { full: COMMITTERS, quick: 8, smoke: 2 });
    const pgbenchClients = byMode(options.mode, { full: COMMITTERS, quick: COMMITTERS, smoke: 4 });
    const pgbenchPerClient = byMode(options.mode, { full: perCommitter, quick: 10, smoke: 5 });
    const reps = byMode(options.mode, { full: 3, quick: 2, smoke: 1 });
    options.log(
      `7 durable merges on PostgreSQL: ${COMMITTERS} committers × ${perCommitter} merges on ${size} skills, in 1, ${CURVE.join(', ')} processes; naive: ${naiveCommitters} document rewrites; pgbench: ${pgbenchClients} clients × ${pgbenchPerClient}`,
    );
    const book = buildBook(size);
    const rand = random(70);
    const { samples, missing } = await withPgbench(pgbenchClients, async (pgbench) => {
      const runs = [
        () => pgProcesses(book, 1, work),
        ...CURVE.map((p) => () => pgProcesses(book, p, work)),
        () => naiveRun(book, size, naiveCommitters, 1, rand),
        () => fileProcesses(book, 1, work),
        () => fileProcesses(book, 2, work),
        ...(pgbench.ok ? [() => pgbench.run(pgbenchClients, pgbenchPerClient)] : []),
      ];
      const samples = await interleave(runs, { warmup: options.mode === 'smoke' ? 0 : 1, reps });
      return { samples, missing: pgbench.ok ? null : pgbench.reason };
    });
    const costs: FollowerCost[] = [];
    for (let i = 0; i < reps; i++) costs.push(await followedCost(book, work));
    const [one = [], ...rest] = samples;
    const curve = CURVE.map((_, i) => rest[i] ?? []);
    const [naive = [], file = [], files = [], bench] = rest.slice(CURVE.length);
    const merges = COMMITTERS * perCommitter;
    const a = rateFigure(one, merges, 'merges/s', `${COMMITTERS} committers, 1 process`);
    const spread = curve.map((ms, i) => rateFigure(ms, merges, 'merges/s', `${COMMITTERS} committers, ${CURVE[i]} processes`));
    const n = rateFigure(naive, naiveCommitters, 'merges/s', 'rewrite the JSON document per transaction');
    const f = rateFigure(file, merges, 'merges/s', `file store, ${COMMITTERS} committers, 1 process`);
    const f2 = rateFigure(files, merges, 'merges/s', `file store, ${COMMITTERS} committers, 2 processes on one file`);
    const detail = { committers: COMMITTERS, perCommitter, naiveCommitters, pgbenchClients, pgbenchPerClient, size, reps };
    const at = (p: number): Figure => {
      const figure = spread[CURVE.indexOf(p as (typeof CURVE)[number])];
      if (!figure) throw new Error(`pg durable merges: ${p} processes are not on the curve`);
      return figure;
    };
    const info = { kind: 'info', text: 'info' } as const;
    const tenfold = { kind: 'at-least', value: 10, text: '≥ 10×' } as const;
    const half = { kind: 'at-least', value: 0.5, text: '≥ 0.5×' } as const;
    const on = `on ${size / 1000}k skills`;
    const vsPgbench = `PostgreSQL durable merges ${on}, 1 process, vs pgbench's one-row UPDATE per transaction (${pgbenchClients} clients)`;
    const p = rateFigure(bench ?? [], pgbenchClients * pgbenchPerClient, 'commits/s', 'pgbench, one-row UPDATE per transaction');
    const perMerge = (pick: (c: FollowerCost) => number, label: string): Figure =>
      medianFigure(
        costs.map((c) => pick(c) * 1000),
        'µs/op',
        label,
      );
    const follower = perMerge(
      (c) => c.followerCpuMsPerMerge,
      `processor time per merge, a process following the book (${FOLLOWERS} of them)`,
    );
    const committing = perMerge(
      (c) => c.committerCpuMsPerMerge,
      `processor time per merge, the process committing (${COMMITTERS} committers)`,
    );
    return {
      rows: [
        ratioRow(
          '7a',
          `PostgreSQL durable merges ${on}, 1 process, vs a document rewrite per transaction`,
          a,
          n,
          a.value / n.value,
          tenfold,
          detail,
        ),
        ratioRow(
          '7b',
          `PostgreSQL durable merges ${on}, ${TARGET_PROCESSES} processes, vs a document rewrite per transaction`,
          at(TARGET_PROCESSES),
          n,
          at(TARGET_PROCESSES).value / n.value,
          tenfold,
          detail,
        ),
        ratioRow('7c', 'PostgreSQL durable merges (1 process) beside the file store', a, f, a.value / f.value, info, detail),
        ...CURVE.map((processes) => {
          const target = processes === TARGET_PROCESSES ? ({ kind: 'at-least', value: 1, text: '≥ 1×' } as const) : info;
          const what = `PostgreSQL durable merges ${on}, ${processes} processes, vs 1 process`;
          return ratioRow(CURVE_ROWS[processes], what, at(processes), a, at(processes).value / a.value, target, detail);
        }),
        missing === null
          ? ratioRow('7g', vsPgbench, a, p, a.value / p.value, half, detail)
          : unrankedRow('7g', vsPgbench, a, null, half, missing),
        ratioRow('7h', 'file store durable merges, 2 processes on one file, vs 1 process', f2, f, f2.value / f.value, info, detail),
        ratioRow(
          '7i',
          `PostgreSQL ${on}: what a process that only follows the book spends per merge, vs the process that commits`,
          follower,
          committing,
          follower.value / committing.value,
          info,
          detail,
        ),
      ],
    };
  },
};
