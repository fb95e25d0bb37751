import { describe, expect, it } from 'vitest';
import type { DurableCrash, SessionPlan, Step } from '@cohort/sim';
import type { DurableObservation } from '../src/durable/runDurable.ts';
import { checkTree, runTree } from './utils/durableTree.ts';

const session = (name: string, steps: Step[]): SessionPlan => ({
  name,
  timeoutMs: null,
  budget: null,
  retry: null,
  stubborn: false,
  steps,
});
const think = (ms: number): Step => ({ kind: 'think', ms });
const spawn = (child: SessionPlan): Step => ({ kind: 'spawn', child, wait: false });
/** An UPDATE of the seed skill: two sessions doing it conflict when neither saw the other's. */
const updateSeed = (by: string): Step => ({
  kind: 'tool',
  op: { type: 'UPDATE', target: { from: 'seed', index: 0 }, text: `by ${by}`, section: 'context', invalid: null },
  thenThrow: false,
});
const add = (by: string): Step => ({
  kind: 'tool',
  op: { type: 'ADD', target: null, text: `learned in ${by}`, section: 'context', invalid: null },
  thenThrow: false,
});

/**
 * The root spawns a child that updates the seed skill after 10 ms, updates it itself after
 * 5 ms (first: the child's merge is refused as a conflict), then spawns a second child.
 */
const tree = session('d1', [
  spawn(session('d1.1', [think(10), updateSeed('d1.1')])),
  think(5),
  updateSeed('d1'),
  spawn(session('d1.2', [think(30), add('d1.2')])),
]);

async function run(crash: DurableCrash): Promise<{ resume: readonly string[]; once: readonly string[]; observed: DurableObservation }> {
  const observed = await runTree(tree, crash);
  return { ...checkTree(observed), observed };
}

describe('runDurable, children spawned among their parent’s writes', () => {
  it('runDurable - a crash after the child was refused: resumed, its recorded outcome is refused again after the root’s write', async () => {
    const { resume, once, observed } = await run({ at: 'append', when: 'before' });
    expect(observed.crashed.recordedBefore).toContain('durable-1/0.1');
    expect(observed.reference.history?.flatMap((c) => (c.kind === 'commit' ? c.entries.map((e) => e.name) : []))).toEqual(['d1', 'd1.2']);
    expect({ resume, once }).toEqual({ resume: [], once: [] });
  });

  it('runDurable - a crash just after the child’s outcome was recorded, before its parent took it in: it merges where the parent had got to', async () => {
    const { resume, once, observed } = await run({ at: 'child-result', after: 1 });
    expect(observed.crashed.recordedBefore).toEqual(['durable-1/0.1']);
    expect({ resume, once }).toEqual({ resume: [], once: [] });
  });
});

/** The root spawns a child that adds a skill after 5 ms, and updates the seed skill itself after 2 ms: the child merges after it. */
const slowChild = session('d1', [spawn(session('d1.1', [think(5), add('d1.1')])), think(2), updateSeed('d1')]);

const blocks = (o: DurableObservation['reference']): (string | undefined)[] =>
  (o.history ?? []).flatMap((c) => (c.kind === 'commit' ? c.entries.map((e) => e.name) : []));

describe('runDurable, a child recorded but not placed at the crash', () => {
  it('runDurable - resumed, it merges before its parent’s write, as in a run without the crash in which it was faster', async () => {
    const observed = await runTree(slowChild, { at: 'child-result', after: 1 });
    expect(blocks(observed.reference)).toEqual(['d1', 'd1.1']);
    expect(blocks(observed.crashed)).toEqual(['d1.1', 'd1']);
    expect(observed.free).toMatchObject([{ unit: 'durable-1', session: '0', child: '0.1', floor: { writes: 0, spawns: 1 } }]);
    expect(observed.faster && blocks(observed.faster)).toEqual(['d1.1', 'd1']);
    expect(checkTree(observed)).toEqual({ resume: [], once: [] });
  });

  it('runDurable - the checker fails: a free merge before where the records show its parent had got to breaks durable-resume', async () => {
    const observed = await runTree(slowChild, { at: 'child-result', after: 1 });
    const [free] = observed.free;
    if (!free) throw new Error('no free merge');
    const { resume } = checkTree({ ...observed, free: [{ ...free, floor: { writes: 1, spawns: 1 } }] });
    expect(resume.join('\n')).toMatch(/child 0\.1 merged into session 0 of durable-1 after 0 writes and 1 spawns, before the 1 writes/);
  });

  it('runDurable - the checker fails: without the run in which the child was faster, the resumed run differs', async () => {
    const observed = await runTree(slowChild, { at: 'child-result', after: 1 });
    const { resume } = checkTree({ ...observed, faster: null });
    expect(resume.join('\n')).toMatch(/the audit differs at 1/);
  });
});
