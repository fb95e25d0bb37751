import { createRuntime, SimulatedClock } from '@cohort/runtime';
import type { Runtime, Session } from '@cohort/runtime';
import { Skillbook } from '@cohort/skillbook';
import { createInspectionTap, recordRun } from '../../src/index.ts';
import type { Recording } from '../../src/index.ts';

/** The seed skill every demo run starts from. */
export const SEED_ID = 'context-00001';

/** The names of the demo's sessions, by what happens to them, and what some were charged. */
export const DEMO = {
  charged: {
    writer: { tokens: 1_500, requests: 2 },
    helper: { tokens: 300, requests: 1 },
    crasher: { tokens: 50, requests: 2 },
    planner: { tokens: 1_550, requests: 4 },
  },
  sessions: 6,
  committed: ['planner', 'writer', 'helper', 'pruner'],
  crashed: 'crasher',
  conflicted: 'editor',
  crashMessage: 'the tool call failed',
} as const;

/** A book with the seed skill. */
export function seededBook(clock: { now(): number }): Skillbook {
  const seeded = Skillbook.empty().applyBatch(
    {
      operations: [
        { type: 'ADD', section: 'context', issue: 'API calls time out under load', insight: 'retry with backoff', keywords: ['api'] },
      ],
    },
    { clock },
  );
  if (!seeded.ok) throw new Error(seeded.error.message);
  return seeded.book;
}

/**
 * A demo-like run on virtual time: a planner with four children — `writer` commits (and a
 * grandchild `helper` it does not wait for merges into it first), `crasher` writes then
 * crashes with a three-level cause chain, `pruner` removes the seed skill, `editor` then
 * updates it and is rejected with a conflict. Recorded with an inspection tap.
 */
export async function demoRun(): Promise<{ recording: Recording; rt: Runtime }> {
  const clock = new SimulatedClock(Date.UTC(2026, 10, 29, 12));
  const tap = createInspectionTap();
  const rt = createRuntime({ book: seededBook(clock), clock, inspect: tap.inspect, runtimeId: 'demo' });
  const recorder = recordRun(rt, { title: 'Demo run', label: 'demo', inspection: tap, clock });
  const outcome = await clock.settle(rt.run(planner, { name: 'planner' }));
  if (outcome.status !== 'committed') throw new Error(`the demo's planner did not commit: ${JSON.stringify(outcome)}`);
  const recording = recorder.stop();
  await rt.close();
  return { recording, rt };
}

async function planner(p: Session): Promise<unknown> {
  await p.tools.add_skill({ section: 'harness', issue: 'plan before editing', insight: 'list the skills you touch' });
  return Promise.all([
    p.spawn(writer, { name: 'writer' }),
    p.spawn(crasher, { name: 'crasher' }),
    p.spawn(
      async (s: Session) => {
        await s.sleep(5);
        await s.tools.remove_skill({ skill_id: SEED_ID, reason: 'superseded' });
      },
      { name: 'pruner' },
    ),
    p.spawn(
      async (s: Session) => {
        await s.sleep(20);
        await s.tools.update_skill({ skill_id: SEED_ID, insight: 'never retry' });
      },
      { name: 'editor' },
    ),
  ]);
}

async function writer(s: Session): Promise<string> {
  s.charge({ tokens: 1_200, requests: 1 }); // a model call's usage
  await s.tools.add_skill({ section: 'context', issue: 'paginate large result sets', insight: 'use cursors', keywords: ['api', 'paging'] });
  // not awaited: the writer drains until its helper has merged
  void s.spawn(
    async (g: Session) => {
      await g.sleep(12);
      g.charge({ tokens: 300, requests: 1 });
      await g.tools.add_skill({ section: 'context', issue: 'cache schema lookups', insight: 'memoise per run' });
    },
    { name: 'helper' },
  );
  await s.sleep(3);
  return 'written';
}

async function crasher(s: Session): Promise<never> {
  s.charge({ tokens: 50, requests: 2 });
  await s.tools.add_skill({ section: 'context', issue: 'must never reach the book', insight: 'leaked' });
  await s.sleep(8);
  const oom = new Error('out of memory');
  const exited = Object.assign(new Error('sandbox exited with code 137', { cause: oom }), { code: 'E_SANDBOX' });
  throw new Error(DEMO.crashMessage, { cause: exited });
}
