/**
 * Scenario 2, fan-out: one parent, N children in parallel, each making 10 `add_skill` calls
 * and committing. Against the floor of the actor library (N bare xstate children that each
 * send one event to their parent and stop) and, for information, the unsafe baseline (plain
 * async functions writing into one shared mutable book: no isolation at all). For information
 * too, a lower bound on any fan-out of xstate sessions: the session protocol alone (actors and
 * their events, nothing else) plus the unsafe baseline's writes, over the same floor.
 */
import { createRuntime } from '@cohort/runtime';
import { sessionProtocol } from '../baselines/sessionProtocol.ts';
import { unsafeSharedFanOut } from '../baselines/unsafeShared.ts';
import { xstateFloor } from '../baselines/xstateFloor.ts';
import type { AceDoc } from '../baselines/AceBook.ts';
import { interleave, now, RssSampler, timeIt } from '../measure.ts';
import type { BenchOptions, BenchRow, Figure, Scenario } from '../Scenario.ts';
import { absoluteRow, byMode, medianFigure, ratioRow } from '../Scenario.ts';

const OPS = 10;

/** One Cohort fan-out of `children` × 10 ADDs in a fresh runtime: its wall time and peak RSS. */
async function cohortFanOut(children: number, rss: RssSampler | null): Promise<number> {
  const rt = createRuntime();
  const sub = rss ? rt.events$.subscribe(() => rss.poke()) : null;
  const t0 = now();
  const outcome = await rt.run(async (root) => {
    const results = await Promise.all(
      Array.from({ length: children }, (_, i) =>
        root.spawn(async (s) => {
          for (let j = 0; j < OPS; j++) await s.tools.add_skill({ section: 'harness', issue: `issue ${i}.${j}`, insight: 'learned' });
        }),
      ),
    );
    return results.filter((r) => r.status === 'committed').length;
  });
  const ms = now() - t0;
  sub?.unsubscribe();
  if (outcome.status !== 'committed' || outcome.output !== children || rt.book.size !== children * OPS) {
    throw new Error(`fan-out: expected ${children} committed children and ${children * OPS} skills, got ${rt.book.size}`);
  }
  await rt.close();
  return ms;
}

function emptyDoc(): AceDoc {
  return { schema_version: '2', skills: {}, sections: {}, next_id: 0, similarity_decisions: {} };
}

/** Scenario 2. */
export const fanOut: Scenario = {
  id: '2',
  name: 'fan-out',
  async run(options: BenchOptions): Promise<BenchRow[]> {
    const children = byMode(options.mode, { full: 10_000, quick: 1_000, smoke: 20 });
    const reps = 3;
    const warmup = 1;
    options.log(`2 fan-out: ${children} children × ${OPS} ADDs, ${reps} runs each of Cohort, the xstate floor, the unsafe baseline and the session protocol`);
    const rss = new RssSampler();
    const peaks: number[] = [];
    const [cohort = [], floor = [], unsafe = [], protocol = []] = await interleave(
      [
        async () => {
          rss.start();
          const ms = await cohortFanOut(children, rss);
          peaks.push(rss.stop());
          return ms;
        },
        () => timeIt(() => xstateFloor(children)),
        () => timeIt(() => unsafeSharedFanOut(emptyDoc(), children, OPS)),
        () => timeIt(() => sessionProtocol(children)),
      ],
      { warmup, reps },
    );
    const c = medianFigure(cohort, 'ms', `${children / 1000}k × ${OPS}`);
    const f = medianFigure(floor, 'ms', 'xstate floor');
    const u = medianFigure(unsafe, 'ms', 'unsafe shared');
    const p = medianFigure(protocol, 'ms', 'session protocol');
    const bound: Figure = { value: p.value + u.value, unit: 'ms', label: 'protocol + unsafe' };
    const peakMb = Math.max(...peaks.slice(warmup)) / 1e6;
    const k = `${children / 1000}k`;
    return [
      ratioRow('2a', `fan-out ${k} children × 10 ADDs, vs xstate floor`, c, f, c.value / f.value, { kind: 'at-most', value: 3, text: '≤ 3×' }, { children, reps }),
      absoluteRow('2b', `fan-out ${k} × 10 wall time`, { value: c.value / 1000, unit: 's' }, { kind: 'at-most', value: 3, text: '< 3 s' }),
      absoluteRow('2c', `fan-out ${k} × 10 peak RSS`, { value: peakMb, unit: 'MB' }, { kind: 'at-most', value: 300, text: '< 300 MB' }),
      ratioRow('2d', `fan-out ${k} × 10, price of isolation vs unsafe`, c, u, c.value / u.value, { kind: 'info', text: 'info' }),
      ratioRow('2e', `fan-out ${k} lower bound (session protocol + unsafe writes) vs floor`, bound, f, bound.value / f.value, { kind: 'info', text: 'info' }),
    ];
  },
};
