import { describe, expect, it } from 'vitest';
import { createRuntime } from '@cohort/runtime';
import type { ConflictPolicy, Session, SessionOutcome } from '@cohort/runtime';
import { issues, replayAudit, withLeases, seededBook } from './utils/books.ts';

/** Sibling A removes the seed and commits first; sibling B, started from the same base, updates it. */
async function siblings(policy: ConflictPolicy) {
  const initial = seededBook();
  const rt = createRuntime({ book: initial, conflicts: policy });
  let release!: () => void;
  const aCommitted = new Promise<void>((r) => (release = r));
  const outcome = await rt.run(async (root) => {
    const a = root.spawn(async (s: Session) => {
      await s.tools.remove_skill({ skill_id: 'context-00001', reason: 'obsolete' });
    });
    const b = root.spawn(async (s: Session) => {
      await s.tools.add_skill({ section: 'harness', issue: 'b keeps this', insight: 'independent' });
      await s.tools.update_skill({ skill_id: 'context-00001', insight: 'B improves the seed' });
      await aCommitted;
    });
    const first = await a;
    release();
    return [first, await b] as const;
  });
  if (outcome.status !== 'committed') throw new Error('root failed');
  return { rt, initial, a: outcome.output[0], b: outcome.output[1] };
}

function failed(o: SessionOutcome) {
  if (o.status !== 'failed') throw new Error(`expected a failure, got ${o.status}`);
  return o.failure;
}

describe('conflicting siblings', () => {
  it('under reject, B is rejected naming the skill and nothing of B lands', async () => {
    const { rt, initial, a, b } = await siblings('reject');
    expect(a.status).toBe('committed');
    const failure = failed(b);
    expect(failure.kind).toBe('conflict');
    expect(failure.conflicts).toEqual([expect.objectContaining({ type: 'UPDATE', skillId: 'context-00001', reason: 'removed' })]);
    expect(failure.message).toContain('context-00001');
    expect(failure.discarded.ops).toBe(2);
    expect(issues(rt.book)).toEqual(['seed issue']);
    expect(rt.book.get('context-00001')?.active).toBe(false);
    expect(withLeases(replayAudit(initial, rt.audit), rt.book).toJSON()).toBe(rt.book.toJSON());
  });

  it("under rebase, B's other ops land and the dropped one is reported", async () => {
    const { rt, initial, b } = await siblings('rebase');
    if (b.status !== 'committed') throw new Error('B should commit under rebase');
    expect(b.dropped).toEqual([expect.objectContaining({ type: 'UPDATE', skillId: 'context-00001', reason: 'removed' })]);
    expect(issues(rt.book)).toEqual(['seed issue', 'b keeps this']);
    expect(rt.book.get('context-00001')?.insight).toBe('seed insight');
    expect(withLeases(replayAudit(initial, rt.audit), rt.book).toJSON()).toBe(rt.book.toJSON());
  });

  it('under last-writer-wins, B overwrites', async () => {
    const { rt, b } = await siblings('last-writer-wins');
    expect(b.status).toBe('committed');
    expect(rt.book.get('context-00001')?.insight).toBe('B improves the seed');
  });

  it('a resolver decides per op', async () => {
    const seen: string[] = [];
    const { rt, b } = await siblings((conflict) => {
      seen.push(`${conflict.type} ${conflict.skillId} ${conflict.reason}`);
      return 'drop';
    });
    expect(seen).toEqual(['UPDATE context-00001 removed']);
    expect(b.status).toBe('committed');
    expect(issues(rt.book)).toContain('b keeps this');
  });

  it('a resolver that throws rejects the commit instead of crashing the supervisor', async () => {
    const { rt, b } = await siblings(() => {
      throw new Error('resolver bug');
    });
    expect(failed(b).kind).toBe('conflict');
    expect(issues(rt.book)).not.toContain('b keeps this');
  });

  it('a TAG never conflicts with an UPDATE or REMOVE', async () => {
    const rt = createRuntime({ book: seededBook() });
    const outcome = await rt.run(async (root) => {
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      const tagger = root.spawn(async (s) => {
        await s.tools.tag_skill({ skill_id: 'context-00001', tag: 'helpful' });
        await gate;
      });
      await root.spawn(async (s) => {
        await s.tools.update_skill({ skill_id: 'context-00001', insight: 'changed' });
      });
      release();
      return tagger;
    });
    if (outcome.status !== 'committed') throw new Error('root failed');
    expect(outcome.output.status).toBe('committed');
    expect(rt.book.get('context-00001')).toMatchObject({ insight: 'changed', helpful_count: 1 });
  });

  it('a child retried on a fresh draft succeeds after a conflict', async () => {
    const rt = createRuntime({ book: seededBook() });
    let attempts = 0;
    const outcome = await rt.run(async (root) => {
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      const b = root.spawn(
        async (s) => {
          attempts += 1;
          await s.tools.update_skill({ skill_id: 'context-00001', insight: `B attempt ${s.attempt}` });
          if (s.attempt === 1) await gate;
        },
        { retry: { attempts: 2 } },
      );
      await root.spawn(async (s) => {
        await s.tools.update_skill({ skill_id: 'context-00001', insight: 'A' });
      });
      release();
      return b;
    });
    if (outcome.status !== 'committed') throw new Error('root failed');
    expect(outcome.output).toMatchObject({ status: 'committed', attempt: 2 });
    expect(attempts).toBe(2);
    expect(rt.book.get('context-00001')?.insight).toBe('B attempt 2');
  });
});
