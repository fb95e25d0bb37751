import { describe, expect, it } from 'vitest';
import { createRuntime, isDefect, isError, isInterruption, isRuntimeError, SessionFailureSchema, SimulatedClock } from '@cohort/runtime';
import type { SessionOutcome } from '@cohort/runtime';
import { MemoryStore } from '@cohort/store';
import type { AppendResult, CommitRecord } from '@cohort/store';
import { DelegatingStore } from '@cohort/store/adapter';

function failure(o: SessionOutcome) {
  if (o.status !== 'failed') throw new Error(`expected a failure, got ${o.status}`);
  return SessionFailureSchema.parse(o.failure);
}

/** A store whose every append ends as `answer` says. */
class FaultyStore extends DelegatingStore {
  constructor(private answer: 'reject' | 'refuse' | 'throw' | 'ok') {
    super(new MemoryStore());
  }
  /** Answers like this from the next append on. */
  answerFromNow(answer: 'reject' | 'refuse' | 'throw' | 'ok'): void {
    this.answer = answer;
  }
  override append(commit: CommitRecord): Promise<AppendResult> {
    if (this.answer === 'ok') return this.inner.append(commit);
    if (this.answer === 'throw') throw new RangeError('store bug, thrown at once');
    if (this.answer === 'reject') return Promise.reject(new TypeError('store bug'));
    return Promise.resolve({ ok: false, error: { code: 'io', message: 'EIO: disk on fire' } });
  }
}

const write = async (s: { tools: { add_skill(a: unknown): Promise<unknown> } }) => {
  await s.tools.add_skill({ section: 'harness', issue: 'x', insight: 'y' });
};

describe('failures tell errors, defects and interruptions apart', () => {
  it('categories - a body that throws is an error of the session, not a defect', async () => {
    const f = failure(
      await createRuntime().run(async () => {
        throw new Error('boom');
      }),
    );
    expect(f).toMatchObject({ kind: 'crashed', category: 'error' });
    expect([isError(f), isDefect(f), isInterruption(f)]).toEqual([true, false, false]);
  });

  it('categories - an abort, a cancellation, a timeout and a wall-clock budget are interruptions', async () => {
    const clock = new SimulatedClock();
    const rt = createRuntime({ clock });
    const aborted = failure(await rt.run(async (s) => s.abort('enough')));
    const timedOut = failure(await clock.settle(rt.run(async (s) => s.sleep(1_000), { timeoutMs: 10 })));
    const outOfTime = failure(await clock.settle(rt.run(async (s) => s.sleep(1_000), { budget: { ms: 10 } })));
    const running = rt.run(async (s) => s.sleep(1_000));
    await rt.close();
    const cancelled = failure(await running);
    for (const f of [aborted, timedOut, outOfTime, cancelled]) expect(isInterruption(f)).toBe(true);
    expect([aborted.kind, timedOut.kind, outOfTime.kind, cancelled.kind]).toEqual(['aborted', 'timeout', 'budget_exhausted', 'cancelled']);
  });

  it('categories - a charge over budget, a conflict and a broken limit are errors', async () => {
    const rt = createRuntime({ limits: { maxDepth: 0 } });
    const charged = failure(
      await rt.run(
        async (s) => {
          s.charge({ tokens: 10 });
        },
        { budget: { tokens: 5 } },
      ),
    );
    const refused = await rt.run(async (s) => s.spawn(async () => 'deep'));
    expect(charged).toMatchObject({ kind: 'budget_exhausted', category: 'error' });
    expect(refused.status === 'committed' && refused.output.status === 'failed' && refused.output.failure).toMatchObject({
      kind: 'limit_exceeded',
      category: 'error',
    });
  });

  it('categories - a store whose append rejects is a defect; one that refuses with a value is an error', async () => {
    const rejecting = failure(await createRuntime({ store: new FaultyStore('reject') }).run(write));
    expect(rejecting).toMatchObject({ kind: 'crashed', category: 'defect', error: { name: 'TypeError', message: 'store bug' } });
    expect(isDefect(rejecting)).toBe(true);
    const refusing = failure(await createRuntime({ store: new FaultyStore('refuse') }).run(write));
    expect(refusing).toMatchObject({ kind: 'crashed', category: 'error', error: { name: 'StoreError', code: 'io' } });
  });
});

describe('a defect never leaves a session waiting', () => {
  it('defects - a merge that throws is reported as runtime.defect, and its session fails as a defect', async () => {
    const rt = createRuntime({ store: new FaultyStore('throw') });
    const defects: string[] = [];
    rt.events$.subscribe((e) => e.type === 'runtime.defect' && defects.push(e.error.message));
    const f = failure(await rt.run(write));
    expect(f).toMatchObject({ kind: 'crashed', category: 'defect', message: 'the merge failed: a runtime defect' });
    expect(defects).toEqual(['store bug, thrown at once']);
    expect(rt.liveSessions).toBe(0);
  });

  it('defects - a merge the store threw on leaves no trace: the next commit lands on the durable book', async () => {
    const store = new FaultyStore('throw');
    const rt = createRuntime({ store });
    expect((await rt.run(write)).status).toBe('failed');
    store.answerFromNow('ok');
    const next = await rt.run(async (s) => {
      await s.tools.add_skill({ section: 'harness', issue: 'after the defect', insight: 'y' });
    });
    expect(next.status).toBe('committed');
    expect(rt.book.size).toBe(1);
    expect(rt.audit.flatMap((e) => e.ops.map((op) => op.issue))).toEqual(['after the defect']);
  });
});

describe('programmer errors throw with a stable code', () => {
  it('errors - options the runtime cannot run with throw RUNTIME_INVALID_OPTIONS', () => {
    let thrown: unknown;
    try {
      createRuntime({ limits: { maxDepth: -1 } });
    } catch (err) {
      thrown = err;
    }
    expect(isRuntimeError(thrown, 'RUNTIME_INVALID_OPTIONS')).toBe(true);
    expect((thrown as Error).message).toContain('maxDepth');
  });

  it('errors - virtual time never moves backwards, and a hang is named', async () => {
    const clock = new SimulatedClock(0);
    expect(() => clock.advance(-1)).toThrow(expect.objectContaining({ code: 'CLOCK_INVALID_ADVANCE' }));
    await expect(clock.settle(new Promise(() => undefined))).rejects.toMatchObject({ code: 'CLOCK_OUT_OF_TIMERS' });
    expect(isRuntimeError(new Error('plain'))).toBe(false);
  });
});
