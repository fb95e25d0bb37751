import { describe, expect, it } from 'vitest';
import { createRuntime } from '@cohort/runtime';
import { Skillbook } from '@cohort/skillbook';
import { replayAudit, withLeases } from './utils/books.ts';

describe('fan-out', () => {
  it('1,000 parallel children of 10 ADDs each: unique ids, 1,000 contiguous entries, replayable', async () => {
    const initial = Skillbook.empty();
    const rt = createRuntime({ book: initial });
    const outcome = await rt.run(async (root) =>
      Promise.all(
        Array.from({ length: 1_000 }, (_, c) =>
          root.spawn(async (s) => {
            for (let i = 0; i < 10; i++) {
              const r = await s.tools.add_skill({ section: i % 2 ? 'context' : 'harness', issue: `child ${c} skill ${i}`, insight: 'x' });
              if (!('ok' in r)) throw new Error(JSON.stringify(r));
            }
            return c;
          }),
        ),
      ),
    );
    if (outcome.status !== 'committed') throw new Error('root failed');
    expect(outcome.output.every((o) => o.status === 'committed')).toBe(true);
    const ids = [...rt.book.skills()].map((s) => s.id);
    expect(ids).toHaveLength(10_000);
    expect(new Set(ids).size).toBe(10_000);
    expect(rt.audit).toHaveLength(1_000);
    for (const entry of rt.audit) {
      expect(entry.ops).toHaveLength(10);
      expect(entry.path).toHaveLength(2);
      expect(new Set(entry.ops.map((op) => (op.issue ?? '').split(' skill')[0])).size).toBe(1);
    }
    expect(withLeases(replayAudit(initial, rt.audit), rt.book).toJSON()).toBe(rt.book.toJSON());
  });
});
