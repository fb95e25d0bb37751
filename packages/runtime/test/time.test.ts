import { describe, expect, it } from 'vitest';
import { createRuntime, SimulatedClock } from '@cohort/runtime';
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
    expect(outcome.output.failure).toMatchObject({ kind: 'budget_exhausted', at: start + 1_500, message: expect.stringContaining('500 ms') });
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
