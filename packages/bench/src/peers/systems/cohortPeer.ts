/**
 * Cohort on W(n, k): every child is a session spawned on its parent's draft, each insert an
 * `add_skill` tool call (validated), each commit merged by its parent; a child
 * that throws fails and its draft is dropped.
 */
import { createRuntime } from '@cohort/runtime';
import type { RuntimeOptions, Session } from '@cohort/runtime';
import { now } from '../../measure.ts';
import type { PeerRun, PeerSystem } from '../PeerSystem.ts';
import type { Workload } from '../Workload.ts';
import { crashesAt, insertOf } from '../Workload.ts';

async function body(s: Session, w: Workload, path: readonly number[]): Promise<void> {
  if (path.length > 0) for (let j = 0; j < w.k; j++) await s.tools.add_skill(insertOf(path, j));
  const children = w.fanOut[path.length] ?? 0;
  await Promise.all(Array.from({ length: children }, (_, i) => s.spawn((child) => body(child, w, [...path, i]))));
  if (crashesAt(path)) throw new Error('crash');
}

/** Runs `w` on a runtime of its own, made with `options` (the tracing bench turns tracing off). */
export async function runCohort(w: Workload, options: Pick<RuntimeOptions, 'tracing'> = {}): Promise<PeerRun> {
  const rt = createRuntime({ limits: { maxDepth: w.fanOut.length }, ...options });
  const t0 = now();
  const outcome = await rt.run((root) => body(root, w, []));
  const ms = now() - t0;
  const kept = [...rt.book.skills()];
  await rt.close();
  if (outcome.status !== 'committed') throw new Error(`Cohort: the parent session ended ${outcome.status}`);
  return { ms, kept };
}

/** Cohort, through its public API. */
export const cohortPeer: PeerSystem = {
  key: 'cohort',
  name: 'Cohort',
  run: (w: Workload) => runCohort(w),
};
