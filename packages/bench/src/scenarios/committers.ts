/**
 * The committers of the durable-merge scenarios (4 and 7): root sessions in parallel, each
 * committing one small change after another, in this process or in processes of their own
 * sharing one store (a PostgreSQL schema, or one file).
 */
import { createRuntime } from '@cohort/runtime';
import type { Runtime } from '@cohort/runtime';
import type { Store } from '@cohort/store';
import { z } from 'zod';
import { randomId } from '../books.ts';
import { childLines, startChild } from '../children.ts';
import { now } from '../measure.ts';
import { sql } from './pgMerges.ts';
import type { CommitterOptions, SharedStore } from './committerMain.ts';

/** One merge's change: a new skill and a tag on an existing one. */
function change(size: number, rand: () => number, tag: string): { operations: object[] } {
  return {
    operations: [
      { type: 'ADD', section: 'harness', issue: `durable ${tag}`, insight: 'learned' },
      { type: 'TAG', skill_id: randomId(size, rand), metadata: { delta: 1 } },
    ],
  };
}

/** `count` root sessions in parallel on `rt`, `perCommitter` merges each, every one durable before the next. */
export async function committers(
  rt: Runtime,
  count: number,
  perCommitter: number,
  size: number,
  rand: () => number,
  tag: string,
): Promise<void> {
  await Promise.all(
    Array.from({ length: count }, async (_, c) => {
      for (let i = 0; i < perCommitter; i++) {
        const outcome = await rt.run(async (s) => {
          const r = s.applyBatch(change(size, rand, `${tag}.${c}.${i}`));
          if (!r.ok) throw new Error(r.error.message);
        });
        if (outcome.status !== 'committed') throw new Error(`durable merges: a merge failed: ${outcome.failure.message}`);
      }
    }),
  );
}

/** `count` committers (as {@link committers}) on a runtime of their own over `store`: the ms until every merge is durable. */
export async function timedCommitters(
  store: Store,
  count: number,
  perCommitter: number,
  size: number,
  rand: () => number,
  tag: string,
): Promise<number> {
  const rt = createRuntime({ store });
  await rt.ready;
  const t0 = now();
  await committers(rt, count, perCommitter, size, rand, tag);
  const ms = now() - t0;
  await rt.close();
  return ms;
}

/** Starts `processes` committer processes on `store`, lets them go together, and returns the ms until the last one's merges were all durable. */
export async function manyProcesses(
  store: SharedStore,
  processes: number,
  options: Omit<CommitterOptions, 'store' | 'seed' | 'tag'>,
): Promise<number> {
  const roles = Array.from({ length: processes }, (_, p) => ({ seed: 70 + p, tag: `p${p}`, ...options }));
  return (await runProcesses(store, roles)).ms;
}

/** What a replica that only follows the book costs: processor time per merge, its and the committing process's. */
export interface FollowerCost {
  readonly committerCpuMsPerMerge: number;
  readonly followerCpuMsPerMerge: number;
}

/**
 * One committer process with `options.committers` committers beside `followers` processes that
 * commit nothing and follow the book (a runtime each, on the same PostgreSQL schema): the
 * processor time per merge of the committing process and, on average, of a follower.
 */
export async function followedProcesses(
  store: SharedStore,
  followers: number,
  options: Omit<CommitterOptions, 'store' | 'seed' | 'tag'>,
): Promise<FollowerCost> {
  if (store.kind !== 'pg') throw new Error('durable merges: only a PostgreSQL store is followed');
  const merges = options.committers * options.perCommitter;
  const committer = { seed: 70, tag: 'p0', ...options };
  const following = Array.from({ length: followers }, (_, p) => ({ ...committer, seed: 71 + p, tag: `f${p}`, follow: true as const }));
  // every process is ready: the book is at its revision before the run, and the followers follow it to `merges` past it
  const go = async () => `GO ${Number((await sql(`SELECT revision FROM "${store.schema}".book`, store.url)).rows[0]?.revision) + merges}`;
  const [first, ...rest] = (await runProcesses(store, [committer, ...following], go)).cpuMs;
  const mean = rest.reduce((sum, ms) => sum + ms, 0) / Math.max(rest.length, 1);
  return { committerCpuMsPerMerge: (first ?? 0) / merges, followerCpuMsPerMerge: mean / merges };
}

/** Starts one process per role on `store`, lets them go together: the ms until the last one was done, and each one's processor time meanwhile. */
async function runProcesses(
  store: SharedStore,
  roles: readonly Omit<CommitterOptions, 'store'>[],
  go: () => Promise<string> = async () => 'GO',
): Promise<{ ms: number; cpuMs: number[] }> {
  const children = roles.map((role) => {
    const args: CommitterOptions = { store, ...role };
    const child = startChild('COHORT_BENCH_COMMITTER_ENTRY', 'committerMain.ts', args);
    return { child, lines: childLines(child, `durable merges: committer process ${role.tag}`) };
  });
  try {
    await Promise.all(children.map((c) => c.lines.next('ready')));
    const line = await go();
    const t0 = now();
    for (const c of children) c.child.stdin.write(`${line}\n`);
    const done = await Promise.all(children.map((c) => c.lines.next('done')));
    return { ms: now() - t0, cpuMs: done.map((d) => z.number().nonnegative().parse(d['cpuMs'])) };
  } finally {
    for (const c of children) c.child.kill('SIGKILL');
  }
}
