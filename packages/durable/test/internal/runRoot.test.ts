import { describe, expect, it } from 'vitest';
import { Skillbook } from '@cohort/skillbook';
import type { AuditEntry } from '@cohort/runtime';
import { MemoryStore } from '@cohort/store';
import { appendOnce } from '../../src/internal/runRoot.ts';

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
