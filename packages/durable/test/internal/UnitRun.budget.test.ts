import { afterEach, describe, expect, it } from 'vitest';
import { createRuntime } from '@cohort/runtime';
import type { SessionBody } from '@cohort/runtime';
import { Bodies } from '../../src/Bodies.ts';
import { started } from '../utils/bodies.ts';
import { budgetBodies, budgeted, retryRoot } from '../utils/budgetBodies.ts';
import type { RetryRootInput } from '../utils/budgetBodies.ts';
import { unitsInMemory } from '../utils/memoryUnits.ts';

/** What the same root gives run in process, without units: the runtime's own semantics. */
async function inProcess(body: SessionBody<never, unknown>, input: unknown = null): Promise<unknown> {
  const rt = createRuntime();
  const outcome = await rt.run(body, { input: input as never });
  await rt.close();
  return outcome.status === 'committed' ? outcome.output : outcome;
}

const starts: string[] = [];
started.hook = (issue) => void starts.push(issue);
afterEach(() => void starts.splice(0));

describe('runUnit - budgets across units', () => {
  it('a child unit spends what its spawn carried and its parent is charged what it spent, as in process; a run resumed charges recorded children once', async () => {
    const units = unitsInMemory(new Bodies(budgetBodies));
    const first = await units.root('budget-1', 'budgeted');
    const expected = { ended: ['committed', 'budget_exhausted', 'committed'], left: { tokens: 700, requests: 8 } };
    expect(first).toMatchObject({ status: 'committed', output: expected });
    expect(first.status === 'committed' && first.output).toEqual(await inProcess(budgeted));
    const ran = [...units.started];
    expect(ran).toEqual(['budget-1/0.1', 'budget-1/0.1/0.1', 'budget-1/0.1/0.2', 'budget-1/0.1/0.3']);
    // the root again, as after a crash of its worker: every child recorded, none runs, none charged twice
    const again = await units.root('budget-1', 'budgeted');
    expect(units.started).toEqual(ran);
    expect(again).toMatchObject({ status: 'committed', output: expected });
  });

  it("a child unit's usage is recorded with its outcome, and a wall-clock budget with its deadline", async () => {
    const slow = async (s: Parameters<typeof budgeted>[0]) => {
      await s.sleep(60_000);
      return 'woke';
    };
    const { host } = unitsInMemory(new Bodies({ ...budgetBodies, slow }));
    const spec = { unitId: 'wall-1/0.1', body: 'slow', input: null, budget: { ms: 60_000 }, view: { baseRevision: 0, ops: [] } };
    // the first start recorded a wall-clock deadline that has passed since (the worker was down)
    await host.journal.record('wall-1/0.1', 'wall-clock', Date.now() - 1_000);
    expect(await host.runChild(spec)).toMatchObject({ status: 'failed', failure: { kind: 'budget_exhausted' } });
    const leafRun = await host.runChild({
      unitId: 'leaf-1/0.1',
      body: 'leaf',
      input: { issue: 'paid', tokens: 30 },
      budget: { tokens: 50 },
      view: { baseRevision: 0, ops: [] },
    });
    expect(leafRun).toMatchObject({ status: 'committed', usage: { tokens: 30, requests: 1 } });
  });
});

describe('runUnit - retry of a child unit', () => {
  const input: RetryRootInput = { issue: 'flaky', succeedsOn: 3, tokens: 100, attempts: 3 };

  it("re-runs a failed child unit per the runtime's rule, each attempt a unit of its own, each charged once", async () => {
    const units = unitsInMemory(new Bodies(budgetBodies));
    const first = await units.root('retry-1', 'retryRoot', input);
    const expected = { status: 'committed', output: 3, attempt: 3, left: 700 };
    expect(first).toMatchObject({ status: 'committed', output: expected });
    expect(first.status === 'committed' && first.output).toEqual(await inProcess(retryRoot as never, input));
    expect(units.started).toEqual(['retry-1/0.1.1', 'retry-1/0.1.1#2', 'retry-1/0.1.1#3']);
    expect(starts).toEqual(['flaky #1', 'flaky #2', 'flaky #3', 'flaky #1', 'flaky #2', 'flaky #3']);
    // resumed: the recorded attempts are not run again, and their count is the same
    starts.splice(0);
    expect(await units.root('retry-1', 'retryRoot', input)).toMatchObject({ status: 'committed', output: expected });
    expect(starts).toEqual([]);
    expect(units.started).toHaveLength(3);
  });

  it('the last failed attempt arrives as its failure value with its cause chain; a kind the rule does not list is not retried', async () => {
    const units = unitsInMemory(new Bodies(budgetBodies));
    const exhausted = await units.root('retry-2', 'retryRoot', { ...input, succeedsOn: 9, attempts: 1 });
    const error = { message: 'attempt 2 failed', cause: { message: 'the service said no', code: 'E_NO' } };
    expect(exhausted).toMatchObject({ status: 'committed', output: { status: 'failed', kind: 'crashed', attempt: 2, error, left: 800 } });
    const exhaustedHere = await inProcess(retryRoot as never, { ...input, succeedsOn: 9, attempts: 1 });
    expect(exhausted.status === 'committed' && exhausted.output).toMatchObject({ ...(exhaustedHere as object), error });
    const unlisted = await units.root('retry-3', 'retryRoot', { ...input, on: ['conflict'] });
    expect(unlisted).toMatchObject({ status: 'committed', output: { status: 'failed', kind: 'crashed', attempt: 1, left: 900 } });
    expect(units.started.filter((u) => u.startsWith('retry-3/'))).toEqual(['retry-3/0.1.1']);
  });
});
