import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRuntime, SessionFailureSchema, SimulatedClock, toErrorInfo } from '@cohort/runtime';
import type { SessionOutcome } from '@cohort/runtime';

function failure(o: SessionOutcome) {
  if (o.status !== 'failed') throw new Error(`expected a failure, got ${o.status}`);
  return SessionFailureSchema.parse(o.failure);
}

const escaped: unknown[] = [];
const onEscape = (e: unknown) => escaped.push(e);

describe('failures are values', () => {
  beforeEach(() => {
    escaped.length = 0;
    process.on('unhandledRejection', onEscape);
    process.on('uncaughtException', onEscape);
  });
  afterEach(async () => {
    await new Promise((r) => setTimeout(r, 20));
    process.off('unhandledRejection', onEscape);
    process.off('uncaughtException', onEscape);
    expect(escaped).toEqual([]);
  });

  it('keeps the whole cause chain of a crash', async () => {
    const rt = createRuntime();
    const root = new Error('disk full');
    Object.assign(root, { code: 'ENOSPC' });
    const outcome = await rt.run(async () => {
      throw new Error('tool failed', { cause: new TypeError('wrapped', { cause: root }) });
    });
    const f = failure(outcome);
    expect(f.kind).toBe('crashed');
    expect(f.error).toMatchObject({
      name: 'Error',
      message: 'tool failed',
      cause: { name: 'TypeError', message: 'wrapped', cause: { message: 'disk full', code: 'ENOSPC' } },
    });
    expect(f.error?.stack).toContain('tool failed');
  });

  it.each([
    ['a string', 'plain string'],
    ['a number', 42],
    ['undefined', undefined],
    ['null', null],
    ['an object', { reason: 'custom' }],
  ])('turns a thrown %s into a crash failure', async (_label, thrown) => {
    const rt = createRuntime();
    const outcome = await rt.run(async () => {
      throw thrown;
    });
    const f = failure(outcome);
    expect(f.kind).toBe('crashed');
    expect(f.error?.name).toBe('NonError');
  });

  it('survives a body that throws synchronously, and one that throws after its timeout', async () => {
    const clock = new SimulatedClock();
    const rt = createRuntime({ clock });
    const sync = await rt.run(((): Promise<never> => {
      throw new Error('sync throw');
    }) as () => Promise<never>);
    expect(failure(sync).message).toBe('sync throw');
    const late = rt.run(
      async (s) => {
        await new Promise((r) => clock.setTimeout(() => r(undefined), 100));
        await s.tools.add_skill({ section: 'harness', issue: 'too late', insight: 'x' });
        throw new Error('thrown after the timeout');
      },
      { timeoutMs: 10 },
    );
    const outcome = await clock.settle(late);
    expect(failure(outcome).kind).toBe('timeout');
    await clock.settle(new Promise((r) => clock.setTimeout(() => r(undefined), 200)));
    expect(rt.book.size).toBe(0);
  });

  it('refuses tool calls and batches from a session that has ended, and never applies them', async () => {
    const rt = createRuntime();
    let leaked!: () => Promise<unknown>;
    const outcome = await rt.run(async (s) => {
      leaked = () => s.tools.add_skill({ section: 'harness', issue: 'from beyond', insight: 'x' });
      return 'done';
    });
    expect(outcome.status).toBe('committed');
    expect(await leaked()).toEqual({ error: expect.stringContaining('has ended') });
    expect(rt.book.size).toBe(0);
  });

  it('rejects a sleep when the session signal fires, already handled', async () => {
    const clock = new SimulatedClock();
    const rt = createRuntime({ clock });
    let sleepResult: unknown;
    const run = rt.run(
      async (s) => {
        void s.sleep(1_000); // never awaited: must not become an unhandled rejection
        sleepResult = await s.sleep(1_000).then(
          () => 'woke',
          (e: Error) => e.message,
        );
      },
      { timeoutMs: 5 },
    );
    expect(failure(await clock.settle(run)).kind).toBe('timeout');
    await clock.settle(Promise.resolve());
    expect(sleepResult).toContain('session ended');
  });

  it('cancels live sessions on close', async () => {
    const rt = createRuntime();
    const run = rt.run(async (s) => new Promise((r) => s.signal.addEventListener('abort', r)));
    await new Promise((r) => setTimeout(r, 5));
    await rt.close();
    expect(failure(await run).kind).toBe('cancelled');
    expect(failure(await rt.run(async () => 'x')).message).toContain('closed');
  });

  it('describes hostile thrown values without throwing', () => {
    const hostile = new Proxy(
      {},
      {
        get: () => {
          throw new Error('trap');
        },
      },
    );
    expect(toErrorInfo(hostile).name).toBeTypeOf('string');
    const cyclic = new Error('a');
    (cyclic as { cause?: unknown }).cause = cyclic;
    expect(toErrorInfo(cyclic).cause).toBeUndefined();
  });
});
