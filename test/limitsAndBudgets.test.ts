import { describe, expect, it } from 'vitest';
import { createRuntime } from '@cohort/runtime';
import type { Session, SessionOutcome } from '@cohort/runtime';

function failure(o: SessionOutcome) {
  if (o.status !== 'failed') throw new Error(`expected a failure, got ${o.status}`);
  return o.failure;
}

describe('budgets', () => {
  it('a child over its carved budget fails with budget_exhausted and its usage is charged back', async () => {
    const rt = createRuntime({ budget: { tokens: 1_000 } });
    const seen: Record<string, unknown> = {};
    const outcome = await rt.run(async (root) => {
      const child = await root.spawn(
        async (s: Session) => {
          expect(s.charge({ tokens: 300 }).ok).toBe(true);
          await s.tools.add_skill({ section: 'harness', issue: 'lost', insight: 'x' });
          seen.overrun = s.charge({ tokens: 300 });
          return 'unreachable commit';
        },
        { budget: { tokens: 500 } },
      );
      seen.afterChild = root.charge({ tokens: 0 });
      seen.tooBig = await root.spawn(async () => 'x', { budget: { tokens: 800 } });
      return child;
    });
    if (outcome.status !== 'committed') throw new Error('root failed');
    expect(failure(outcome.output)).toMatchObject({ kind: 'budget_exhausted', discarded: { ops: 1 } });
    expect(seen.overrun).toMatchObject({ ok: false });
    // 300 tokens were spent by the failed child and charged back: 700 remain
    expect(seen.afterChild).toEqual({ ok: true, remaining: { tokens: 700, requests: Infinity } });
    expect(failure(seen.tooBig as SessionOutcome)).toMatchObject({ kind: 'budget_exhausted' });
    expect(rt.book.size).toBe(0);
  });

  it('siblings cannot spend what a carved child reserved', async () => {
    const rt = createRuntime({ budget: { requests: 10 } });
    const outcome = await rt.run(async (root) => {
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      const holder = root.spawn(async () => gate, { budget: { requests: 8 } });
      const spender = await root.spawn(async (s) => s.charge({ requests: 3 }));
      release();
      await holder;
      return { spender, after: root.charge({ requests: 3 }) };
    });
    if (outcome.status !== 'committed') throw new Error('root failed');
    expect(failure(outcome.output.spender)).toMatchObject({ kind: 'budget_exhausted' });
    expect(outcome.output.after).toEqual({ ok: true, remaining: { tokens: Infinity, requests: 7 } });
  });
});

describe('limits', () => {
  it('maxDepth refuses a spawn with a structured failure and does not fail the caller', async () => {
    const rt = createRuntime({ limits: { maxDepth: 2 } });
    const outcome = await rt.run(async (root) =>
      root.spawn(async (d1) =>
        d1.spawn(async (d2) => {
          const tooDeep = await d2.spawn(async () => 'never runs');
          await d2.tools.add_skill({ section: 'harness', issue: 'depth 2 wrote', insight: 'x' });
          return tooDeep;
        }),
      ),
    );
    if (outcome.status !== 'committed' || outcome.output.status !== 'committed' || outcome.output.output.status !== 'committed') {
      throw new Error('the callers should commit');
    }
    const refused = failure(outcome.output.output.output);
    expect(refused.kind).toBe('limit_exceeded');
    expect(refused.path).toHaveLength(4);
    expect(refused.message).toContain('maxDepth 2');
    expect(rt.book.size).toBe(1);
  });

  it('maxChildren and maxSessions refuse spawns instead of hanging', async () => {
    const rt = createRuntime({ limits: { maxChildren: 2, maxSessions: 10 } });
    const outcome = await rt.run(async (root) => {
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      const live = [root.spawn(async () => gate), root.spawn(async () => gate)];
      const third = await root.spawn(async () => 'x');
      release();
      await Promise.all(live);
      return third;
    });
    if (outcome.status !== 'committed') throw new Error('root failed');
    expect(failure(outcome.output)).toMatchObject({ kind: 'limit_exceeded', message: expect.stringContaining('maxChildren 2') });
  });

  it('maxOpsPerCommit turns an oversized commit into limit_exceeded', async () => {
    const rt = createRuntime({ limits: { maxOpsPerCommit: 3 } });
    const outcome = await rt.run(async (root) =>
      root.spawn(async (s) => {
        for (let i = 0; i < 4; i++) await s.tools.add_skill({ section: 'harness', issue: `op ${i}`, insight: 'x' });
      }),
    );
    if (outcome.status !== 'committed') throw new Error('root failed');
    expect(failure(outcome.output)).toMatchObject({ kind: 'limit_exceeded', discarded: { ops: 4 } });
    expect(rt.book.size).toBe(0);
  });

  it('invalid spawn options are refused with a structured failure', async () => {
    const rt = createRuntime();
    const outcome = await rt.run(async (root) => root.spawn(async () => 'x', { timeoutMs: -5 }));
    if (outcome.status !== 'committed') throw new Error('root failed');
    expect(failure(outcome.output).message).toContain('timeoutMs');
  });
});
