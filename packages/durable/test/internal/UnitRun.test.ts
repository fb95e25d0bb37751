import { describe, expect, it } from 'vitest';
import type { Session } from '@cohort/runtime';
import { recordStep } from '../../src/index.ts';
import { Bodies } from '../../src/Bodies.ts';
import { runUnit } from '../../src/internal/UnitRun.ts';
import { agent, modelCalls } from '../utils/agents.ts';
import { memoryHost } from '../utils/memoryHost.ts';

describe('runUnit', () => {
  it('a unit run again (after a crash) pays its recorded steps once and tells its sessions the same ids', async () => {
    let calls = 0;
    const learner = async (s: Session) => {
      const insight = await recordStep(s, 'ask the model', async () => `insight ${++calls}`);
      const child = await s.spawn(async (c) => recordStep(c, 'ask the model again', async () => `child insight ${++calls}`));
      const added = await s.tools.add_skill({ section: 'harness', issue: 'paid once', insight });
      return { added, insight, child: child.status === 'committed' ? child.output : null };
    };
    const host = memoryHost(new Bodies({ learner }));
    const spec = { unitId: 'run-1', body: 'learner', input: null, view: { baseRevision: 0, ops: [] } };
    const first = await runUnit(host, spec);
    const again = await runUnit(host, spec);
    expect(first).toMatchObject({ status: 'committed', output: { insight: 'insight 1', child: 'child insight 2' } });
    // the same output, the same ids, the same blocks; only the ops' timestamps are the second run's
    const untimed = (r: typeof first) =>
      r.status === 'committed' ? { ...r, entries: r.entries.map((e) => ({ ...e, ops: e.ops.map(({ at: _, ...op }) => op) })) } : r;
    expect(untimed(again)).toEqual(untimed(first));
    expect(calls).toBe(2);
    // another unit: steps of its own, ids of its own
    const other = await runUnit(host, { ...spec, unitId: 'run-2' });
    expect(calls).toBe(4);
    if (other.status !== 'committed' || first.status !== 'committed') throw new Error('not committed');
    expect(other.output).not.toEqual(first.output);
  });

  it('a step whose value cannot be recorded fails its session as a crash', async () => {
    const dated = async (s: Session) => recordStep(s, 'a date', async () => new Date());
    const result = await runUnit(memoryHost(new Bodies({ dated })), {
      unitId: 'run-3',
      body: 'dated',
      input: null,
      view: { baseRevision: 0, ops: [] },
    });
    expect(result).toMatchObject({
      status: 'failed',
      failure: { kind: 'crashed', message: expect.stringContaining('value: a Date') as string },
    });
  });

  it('outside a durable session a step just runs', async () => {
    const { createRuntime } = await import('@cohort/runtime');
    const rt = createRuntime();
    expect(await rt.run(async (s) => recordStep(s, 'plain', async () => 7))).toMatchObject({ status: 'committed', output: 7 });
    await rt.close();
  });

  it('a unit run again after its recorded deadline times out at once: a timeout is wall-clock across restarts', async () => {
    const slow = async (s: Session) => {
      await s.sleep(60_000);
      return 'woke';
    };
    const host = memoryHost(new Bodies({ slow }));
    const spec = { unitId: 'run-deadline', body: 'slow', input: null, timeoutMs: 60_000, view: { baseRevision: 0, ops: [] } };
    // the first start recorded a deadline that has passed since (the worker was down)
    await host.journal.record('run-deadline', 'deadline', Date.now() - 1_000);
    const result = await runUnit(host, spec);
    expect(result).toMatchObject({ status: 'failed', failure: { kind: 'timeout' } });
  });

  it('a first start records the deadline its timeout counts to', async () => {
    const quick = async () => 'done';
    const host = memoryHost(new Bodies({ quick }));
    const before = Date.now();
    const result = await runUnit(host, {
      unitId: 'run-q',
      body: 'quick',
      input: null,
      timeoutMs: 5_000,
      view: { baseRevision: 0, ops: [] },
    });
    expect(result.status).toBe('committed');
    const deadline = (await host.journal.get('run-q', 'deadline')) as number;
    expect(deadline).toBeGreaterThanOrEqual(before + 5_000);
    expect(deadline).toBeLessThanOrEqual(Date.now() + 5_000);
  });

  it("an agent's model calls through @cohort/ai are recorded steps: a unit run again makes none, and ends the same", async () => {
    const made: string[] = [];
    modelCalls.hook = (task, step) => void made.push(`${task} ${step}`);
    try {
      const host = memoryHost(new Bodies({ agent }));
      const spec = { unitId: 'run-agent', body: 'agent', input: { task: 'solo', steps: 2 }, view: { baseRevision: 0, ops: [] } };
      const first = await runUnit(host, spec);
      expect(made).toEqual(['solo 0', 'solo 1', 'solo 2']);
      const again = await runUnit(host, spec);
      expect(made, 'no call made again').toHaveLength(3);
      expect(again).toMatchObject({ status: 'committed', output: 'solo done' });
      const issues = (r: typeof first) => (r.status === 'committed' ? r.entries.flatMap((e) => e.ops.map((op) => op.issue)) : []);
      expect(issues(again)).toEqual(issues(first));
      expect(issues(again)).toEqual(['solo step 0', 'solo step 1']);
    } finally {
      modelCalls.hook = () => undefined;
    }
  });
});
