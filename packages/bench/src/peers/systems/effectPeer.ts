/**
 * Effect on W(n, k): each child a fiber (`Effect.forEach` with unbounded concurrency) whose
 * isolated view is its own `Ref`, one `Ref.update` per insert; a parent appends the views of
 * the children that succeeded to its own `Ref` once they have all ended (`Effect.exit` keeps
 * a child's throw, a defect, from failing its siblings). The bench pins effect 4.1.0.
 */
import { Effect, Exit, Ref } from 'effect';
import { now } from '../../measure.ts';
import type { PeerRun, PeerSystem } from '../PeerSystem.ts';
import type { Insert, Workload } from '../Workload.ts';
import { crashesAt, insertOf } from '../Workload.ts';

function child(w: Workload, path: readonly number[]): Effect.Effect<readonly Insert[]> {
  return Effect.gen(function* () {
    const view = yield* Ref.make<readonly Insert[]>([]);
    if (path.length > 0) for (let j = 0; j < w.k; j++) yield* Ref.update(view, (v) => [...v, insertOf(path, j)]);
    const children = w.fanOut[path.length] ?? 0;
    if (children > 0) {
      const exits = yield* Effect.forEach(
        Array.from({ length: children }, (_, i) => i),
        (i) => Effect.exit(child(w, [...path, i])),
        { concurrency: 'unbounded' },
      );
      const theirs = exits.filter(Exit.isSuccess).map((exit) => exit.value);
      yield* Ref.update(view, (v) => v.concat(...theirs));
    }
    if (crashesAt(path)) throw new Error('crash');
    return yield* Ref.get(view);
  });
}

/** Effect: fibers and `Ref`s. */
export const effectPeer: PeerSystem = {
  key: 'effect',
  name: 'Effect 4.1.0',
  async run(w: Workload): Promise<PeerRun> {
    const t0 = now();
    const kept = await Effect.runPromise(child(w, []));
    return { ms: now() - t0, kept };
  },
};
