/**
 * The async floor on W(n, k): plain async functions under `Promise.all`, each child appending
 * to a local buffer (an awaited call per insert, as a tool call is) that its parent appends to
 * its own when the child returns, and drops when it throws. What the JavaScript runtime itself
 * costs for the shape, with isolation but nothing else: no validation, ids, events or budgets.
 */
import { now } from '../../measure.ts';
import type { PeerRun, PeerSystem } from '../PeerSystem.ts';
import type { Insert, Workload } from '../Workload.ts';
import { crashesAt, insertInto, insertOf } from '../Workload.ts';

async function child(w: Workload, path: readonly number[]): Promise<Insert[]> {
  const view: Insert[] = [];
  if (path.length > 0) for (let j = 0; j < w.k; j++) await insertInto(view, insertOf(path, j));
  const children = w.fanOut[path.length] ?? 0;
  await Promise.all(
    Array.from({ length: children }, (_, i) =>
      child(w, [...path, i]).then(
        (theirs) => {
          view.push(...theirs);
        },
        () => undefined,
      ),
    ),
  );
  if (crashesAt(path)) throw new Error('crash');
  return view;
}

/** `Promise.all` and a local buffer per child. */
export const asyncFloor: PeerSystem = {
  key: 'floor',
  name: 'async floor',
  async run(w: Workload): Promise<PeerRun> {
    const t0 = now();
    const kept = await child(w, []);
    return { ms: now() - t0, kept };
  },
};
