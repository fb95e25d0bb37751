import { describe, expect, it } from 'vitest';
import { createRuntime, SimulatedClock } from '@cohort/runtime';
import type { Clock } from '@cohort/runtime';
import { formatAceTimestamp } from '@cohort/skillbook';

describe('time comes from the injected clock', () => {
  it('stamps skills, audit ops and failures with virtual time', async () => {
    const start = Date.UTC(2030, 4, 6, 7, 8, 9) + 123;
    const clock = new SimulatedClock(start);
    const rt = createRuntime({ clock });
    const run = rt.run(async (s) => {
      await s.sleep(1_000);
      await s.tools.add_skill({ section: 'harness', issue: 'x', insight: 'y' });
      const child = await s.spawn(async (c) => c.sleep(10_000), { budget: { ms: 500 } });
      return child;
    });
    const outcome = await clock.settle(run);
    const skill = rt.book.get('harness-00001');
    expect(skill?.created_at).toBe(formatAceTimestamp(start + 1_000));
    expect(rt.audit[0]?.ops[0]?.at).toBe(formatAceTimestamp(start + 1_000));
    if (outcome.status !== 'committed' || outcome.output.status !== 'failed') throw new Error('expected a failed child');
    expect(outcome.output.failure).toMatchObject({
      kind: 'budget_exhausted',
      at: start + 1_500,
      message: expect.stringContaining('500 ms'),
    });
  });

  it('a body that never lets a timer fire is stopped at its next tool call, batch or charge past its deadline, on the clock', async () => {
    let now = 0;
    const clock: Clock = { now: () => now, setTimeout: () => 0, clearTimeout: () => undefined };
    const rt = createRuntime({ clock });
    let calls = 0;
    const outcome = await rt.run(
      async (s) => {
        for (; calls < 50; calls += 1) {
          now += 1_000;
          if ('error' in (await s.tools.read_skill({ skill_id: 'context-00001' })) && s.signal.aborted) break;
        }
      },
      { timeoutMs: 3_000 },
    );
    expect(outcome.status === 'failed' && outcome.failure.kind).toBe('timeout');
    expect(calls).toBe(2); // the third call, at 3,000 ms, finds the deadline passed
    const charged = await rt.run(
      async (s) => {
        now += 10_000;
        return s.charge({ tokens: 1 });
      },
      { budget: { ms: 5_000 } },
    );
    expect(charged.status === 'failed' && charged.failure.kind).toBe('budget_exhausted');
    const batch = await rt.run(
      async (s) => {
        now += 10_000;
        return s.applyBatch({ operations: [{ type: 'ADD', section: 'context', issue: 'late', insight: 'x' }] });
      },
      { timeoutMs: 5_000 },
    );
    expect(batch.status === 'failed' && batch.failure.kind).toBe('timeout');
    expect(rt.book.size).toBe(0);
    await rt.close();
  });

  it('a throw inside a tool callback crashes the session like any throw', async () => {
    const rt = createRuntime();
    const outcome = await rt.run(async (s) =>
      s.spawn(async (c) =>
        c.tools.add_skill({ section: 'harness', issue: 'x', insight: 'y' }).then(() => {
          throw new RangeError('callback blew up');
        }),
      ),
    );
    if (outcome.status !== 'committed' || outcome.output.status !== 'failed') throw new Error('expected a failed child');
    expect(outcome.output.failure).toMatchObject({ kind: 'crashed', error: { name: 'RangeError' }, discarded: { ops: 1 } });
    expect(rt.book.size).toBe(0);
  });
});
