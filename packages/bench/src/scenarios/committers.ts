/**
 * The committers of the durable-merge scenarios (4 and 7): root sessions in parallel, each
 * committing one small change after another, in this process or in processes of their own
 * sharing one store (a PostgreSQL schema, or one file).
 */
import { createRuntime } from '@cohort/runtime';
import type { Runtime } from '@cohort/runtime';
import type { Store } from '@cohort/store';
import { randomId } from '../books.ts';
import { childLines, startChild } from '../children.ts';
import { now } from '../measure.ts';
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
  const children = Array.from({ length: processes }, (_, p) => {
    const args: CommitterOptions = { store, seed: 70 + p, tag: `p${p}`, ...options };
    const child = startChild('COHORT_BENCH_COMMITTER_ENTRY', 'committerMain.ts', args);
    return { child, lines: childLines(child, `durable merges: committer process p${p}`) };
  });
  try {
    await Promise.all(children.map((c) => c.lines.next('ready')));
    const t0 = now();
    for (const c of children) c.child.stdin.write('GO\n');
    await Promise.all(children.map((c) => c.lines.next('done')));
    return now() - t0;
  } finally {
    for (const c of children) c.child.kill('SIGKILL');
  }
}
