import { describe, expect, it } from 'vitest';
import { Skillbook } from '@cohort/skillbook';
import type { AuditEntry } from '@cohort/runtime';
import { MemoryStore } from '@cohort/store';
import type { AppendResult, CommitRecord, HistoryOptions, HistoryPage } from '@cohort/store';
import { DelegatingStore } from '@cohort/store/adapter';
import { DurableError, isDurableError } from '../../src/index.ts';
import { failedRun } from '../../src/internal/runFailures.ts';
import { appendOnce, appendOnceRetried } from '../../src/internal/runRoot.ts';

function rootResult(sessionId: string) {
  const applied = Skillbook.empty().applyBatch({ operations: [{ type: 'ADD', section: 'harness', issue: 'once', insight: 'only once' }] });
  if (!applied.ok) throw new Error('no op');
  const entry = { revision: 1, sessionId, path: [sessionId], ops: applied.applied } as unknown as AuditEntry;
  return {
    status: 'committed' as const,
    sessionId,
    path: [sessionId],
    output: null,
    entries: [entry],
    descendants: 0,
    refused: { count: 0, calls: [] },
    attempt: 1,
  };
}

describe('appendOnce', () => {
  it('appends a root commit the store does not have, and finds it in the history the second time instead of appending it again', async () => {
    const store = new MemoryStore();
    const result = rootResult('d1.1');
    const first = await appendOnce(store, 0, result);
    const second = await appendOnce(store, 0, result);
    expect(first).toEqual({ ok: true, revision: 1 });
    expect(second).toEqual(first);
    const page = await store.history();
    expect(page.ok && page.commits.map((c) => c.sessionId)).toEqual(['d1.1']);
    expect(store.current()?.book.size).toBe(1);
  });

  it('an empty root commit appends nothing', async () => {
    const store = new MemoryStore();
    expect(await appendOnce(store, 0, { ...rootResult('d2.1'), entries: [] })).toEqual({ ok: true, revision: 0 });
    const page = await store.history();
    expect(page.ok && page.commits).toEqual([]);
  });
});

const io = { code: 'io' as const, message: 'terminating connection due to administrator command' };
const noWait = async () => undefined;

/** A store whose database is out of reach for its next `reads` history reads and `appends` appends; `landed` appends go through but answer `io` (the acknowledgement lost). */
class FlakyStore extends DelegatingStore {
  appended = 0;
  constructor(
    private reads: number,
    private appends: number,
    private landed = 0,
  ) {
    super(new MemoryStore());
  }
  override history(options?: HistoryOptions): Promise<HistoryPage> {
    return this.reads-- > 0 ? Promise.resolve({ ok: false, error: io }) : super.history(options);
  }
  override async append(commit: CommitRecord): Promise<AppendResult> {
    this.appended++;
    if (this.appends-- > 0) return { ok: false, error: io };
    const res = await super.append(commit);
    return this.landed-- > 0 ? { ok: false, error: io } : res;
  }
}

describe('appendOnceRetried - the store out of reach (a restarting server)', () => {
  it('asks again while the store answers io, and appends once', async () => {
    const store = new FlakyStore(3, 2);
    expect(await appendOnceRetried(store, 0, rootResult('d3.1'), { tries: 8, sleep: noWait })).toEqual({ ok: true, revision: 1 });
    const page = await store.history();
    expect(page.ok && page.commits.map((c) => c.sessionId)).toEqual(['d3.1']);
  });

  it('an append that landed but whose answer was lost is found in the history, not appended again', async () => {
    const store = new FlakyStore(0, 0, 1);
    expect(await appendOnceRetried(store, 0, rootResult('d4.1'), { tries: 8, sleep: noWait })).toEqual({ ok: true, revision: 1 });
    expect(store.appended).toBe(1);
    const page = await store.history();
    expect(page.ok && page.commits.map((c) => c.sessionId)).toEqual(['d4.1']);
  });

  it('past the last try: DURABLE_STORE_UNAVAILABLE, with the store answer as its cause, and nothing appended', async () => {
    const store = new FlakyStore(0, 100);
    const err: unknown = await appendOnceRetried(store, 0, rootResult('d5.1'), { tries: 3, sleep: noWait }).catch((e: unknown) => e);
    expect(isDurableError(err) && err.code).toBe('DURABLE_STORE_UNAVAILABLE');
    expect((err as Error).cause).toMatchObject({ message: io.message, code: 'io' });
    expect(store.appended).toBe(3);
    expect(store.current()?.book.size).toBe(0);
  });
});

describe('failedRun', () => {
  it('a store out of reach fails the run as an error with its code, at the time given; a defect otherwise', () => {
    const cause = Object.assign(new Error(io.message), { code: 'io' });
    const unavailable = failedRun('r1', 'crashed', new DurableError('DURABLE_STORE_UNAVAILABLE', 'no store', { cause }), 42);
    expect(unavailable).toMatchObject({
      status: 'failed',
      failure: {
        kind: 'crashed',
        category: 'error',
        at: 42,
        error: { code: 'DURABLE_STORE_UNAVAILABLE', cause: { message: io.message, code: 'io' } },
      },
    });
    expect(failedRun('r1', 'crashed', new Error('boom'))).toMatchObject({ failure: { category: 'defect' } });
  });
});
