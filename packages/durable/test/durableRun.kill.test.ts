/**
 * Real processes, killed again and again: three durable workers share one system database and
 * one PostgreSQL store, and run a tree of 116 sessions (depth 3, every session a unit of its
 * own: agents making mock model calls through `@cohort/ai`, rival siblings whose second merge
 * is refused as a conflict, sessions that throw) several times, one run after another. Meanwhile
 * a worker drawn at random is SIGKILLed at a random moment and started again with the same
 * executor id, round after round. The moments and workers come from a seeded source: the seed is
 * printed, and `COHORT_KILL_SEED=<seed>` draws the same ones again.
 *
 * Every run completes with the book, audit blocks and ids told of a run without a crash; its
 * root commit reaches the store once; no session starts, and no model call is made, after its
 * outcome or reply was recorded; whatever ran twice follows a kill of the worker that ran it
 * first; and the children ran on every worker.
 */
import { expect, it } from 'vitest';
import type { SessionOutcome } from '@cohort/runtime';
import { PostgresStore } from '@cohort/store-postgres';
import { seededRandom } from '@cohort/store/testing';
import { Crew } from './utils/crew.ts';
import { useFleet } from './utils/fleet.ts';
import { PG_URL } from './utils/pg.ts';
import { TREE_SESSIONS } from './utils/treeBodies.ts';
import type { TreeReport } from './utils/treeBodies.ts';
import { evidenceOf, expectCrashFreeTree, expectRecordedRanOnce, expectRepeatsFollowKills, TREE_LIMITS } from './utils/treeChecks.ts';

const SEED = Number(process.env['COHORT_KILL_SEED'] ?? Math.floor(Math.random() * 2 ** 31));
/** At least this many kill rounds: runs of the tree follow one another until there were. */
const KILLS = 20;
/** At least two runs, then more while kill rounds remain (the kills keep their pace however fast the trees run). */
const RUNS = { min: 2, max: 20 };
/** Each model call's and each rival's and thrower's wait: the tree runs for seconds, so kills land inside it. */
const DELAY_MS = 150;
/** The pause before each kill (the worker killed before may still be starting: it is killed in its recovery). */
const GAP_MS = [1_000, 4_500] as const;
const EXECUTORS = ['worker-1', 'worker-2', 'worker-3'];

const fleet = useFleet({ maxDepth: TREE_LIMITS.maxDepth, workerConcurrency: 3 });

it('durable run - SIGKILLs of random workers at random moments: every run of a tree of 116 sessions ends as a crash-free run does, nothing recorded runs again', async () => {
  console.log(`kill rounds: seed ${SEED} (COHORT_KILL_SEED=${SEED} draws the same moments and workers)`);
  const crew = new Crew(fleet, EXECUTORS, {});
  await crew.start();
  const killer = crew.killer(seededRandom(SEED), GAP_MS);
  const runs: { id: string; outcome: SessionOutcome<TreeReport> }[] = [];
  try {
    for (let r = 1; r <= RUNS.max && (r <= RUNS.min || crew.kills.length < KILLS); r++) {
      const id = `tree-${r}`;
      crew.during = id;
      // each run asked of another worker first: the roots, too, run on every worker
      const t0 = Date.now();
      runs.push({ id, outcome: await crew.run<TreeReport>(id, 'treeRoot', { tag: id, delayMs: DELAY_MS }, r) });
      console.log(`${id}: ${Date.now() - t0} ms`);
    }
  } finally {
    crew.during = 'after the runs';
    await killer.stop();
  }
  const kills = crew.kills;
  console.log(
    `kill rounds: ${kills.length} kills over ${runs.length} runs: ${kills.map((k) => `${k.executor}@${(k.sinceStartMs / 1000).toFixed(1)}s(${k.during})`).join(' ')}`,
  );
  expect(kills.filter((k) => k.during.startsWith('tree-')).length, `kill rounds while the trees ran (seed ${SEED})`).toBeGreaterThanOrEqual(
    KILLS,
  );

  const opened = await PostgresStore.open({ url: PG_URL, schema: fleet.schema });
  if (!opened.ok) throw new Error('the store did not open');
  try {
    for (const { id, outcome } of runs) await expectCrashFreeTree(outcome, id, opened.store, fleet.systemDatabaseUrl);
  } finally {
    await opened.store.close();
  }

  const ids = runs.map((r) => r.id);
  const evidence = await evidenceOf(ids, fleet.systemDatabaseUrl, fleet.logSchema);
  expectRecordedRanOnce(evidence, ids, TREE_SESSIONS);
  const repeats = expectRepeatsFollowKills(evidence, kills);
  const resumedRoots = ids.filter((id) => evidence.log.filter((e) => e.issue === id).length > 1);
  console.log(`kill rounds: ${repeats} starts and model calls repeated after kills; roots resumed: ${resumedRoots.join(', ') || 'none'}`);

  // three workers: each ran children of the trees
  for (const executor of EXECUTORS) {
    const children = evidence.units.filter((u) => u.id.includes('/') && u.executor === executor);
    expect(children.length, `children run on ${executor}`).toBeGreaterThan(0);
  }
}, 240_000);
