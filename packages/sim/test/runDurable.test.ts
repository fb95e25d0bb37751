import { describe, expect, it } from 'vitest';
import type { Skillbook } from '@cohort/skillbook';
import type { DurableCrash, SessionPlan } from '@cohort/sim';
import type { DurableObservation } from '../src/durable/runDurable.ts';
import type { ProcessMutation } from '../src/durable/SimProcess.ts';
import { checkTree, runTree } from './utils/durableTree.ts';

/** A session that adds one skill after `ms` of thought, then spawns `children` side by side. */
function plan(name: string, ms: number, children: readonly SessionPlan[] = []): SessionPlan {
  return {
    name,
    timeoutMs: null,
    budget: null,
    retry: null,
    stubborn: false,
    steps: [
      { kind: 'think', ms },
      { kind: 'tool', op: { type: 'ADD', target: null, text: `learned in ${name}`, section: 'context', invalid: null }, thenThrow: false },
      ...children.map((child) => ({ kind: 'spawn' as const, child, wait: false })),
    ],
  };
}

// the second child ends first: its outcome is recorded (and merged) before the first one's
const tree = plan('d1', 1, [plan('d1.1', 20), plan('d1.2', 5, [plan('d1.2.1', 3)])]);

const run = (crash: DurableCrash, mutation: ProcessMutation = null): Promise<DurableObservation> => runTree(tree, crash, mutation);

describe('runDurable', () => {
  it('runDurable - a crash after the root commit reached the store: resumed, the commit is there once and no child runs again', async () => {
    const observed = await run({ at: 'append', when: 'after' });
    const { crashed, reference } = observed;
    expect(crashed.crashed).toBe("after the root's append");
    expect([...crashed.recordedBefore].sort()).toEqual(['durable-1/0.1', 'durable-1/0.2', 'durable-1/0.2/0.1']);
    expect(crashed.starts.filter((s) => s.process === 2).map((s) => s.unitId)).toEqual(['durable-1']);
    expect(crashed.appended).toBe(1);
    expect(crashed.outcome).toEqual({ status: 'committed', kind: null });
    // the same skills under the same ids (the timestamps are the later run's)
    const skills = (book: Skillbook) => [...book.skills()].map((s) => `${s.id} ${s.issue}`);
    expect(skills(crashed.book)).toEqual(skills(reference.book));
    expect(skills(crashed.book)).toHaveLength(5);
    expect(checkTree(observed)).toEqual({ resume: [], once: [] });
  });

  it('runDurable - a crash after the first child outcome: that child is not run again, the others run again, the run ends as without the crash', async () => {
    const observed = await run({ at: 'child-result', after: 1 });
    const { crashed } = observed;
    expect(crashed.recordedBefore).toEqual(['durable-1/0.2/0.1']);
    expect(crashed.starts.filter((s) => s.process === 2).map((s) => s.unitId)).toEqual(['durable-1', 'durable-1/0.1', 'durable-1/0.2']);
    expect(checkTree(observed)).toEqual({ resume: [], once: [] });
  });

  it('runDurable - the checker fails: a resume that runs recorded children again breaks recorded-once', async () => {
    const { once } = checkTree(await run({ at: 'append', when: 'before' }, 'rerun-recorded-children'));
    expect(once.join('\n')).toMatch(/child unit durable-1\/0\.1 was recorded before the resume and ran again/);
  });

  it('runDurable - the checker fails: a resume that forgets the merge order of recorded children breaks durable-resume', async () => {
    const { resume } = checkTree(await run({ at: 'append', when: 'before' }, 'forget-merge-order'));
    expect(resume.length).toBeGreaterThan(0);
  });
});
