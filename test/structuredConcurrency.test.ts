import { describe, expect, it } from 'vitest';
import { createRuntime, SimulatedClock } from '@cohort/runtime';
import type { Session } from '@cohort/runtime';
import { issues, replayAudit, withLeases, seededBook } from './utils/books.ts';

describe('nested sessions', () => {
  it('a grandchild that committed into a parent that then crashes reaches nothing', async () => {
    const initial = seededBook();
    const rt = createRuntime({ book: initial });
    let grandchildOutcome: unknown;
    let parentSaw: string[] = [];
    const outcome = await rt.run(async (root) =>
      root.spawn(async (parent: Session) => {
        await parent.tools.add_skill({ section: 'harness', issue: 'parent write', insight: 'p' });
        grandchildOutcome = await parent.spawn(async (g) => {
          await g.tools.add_skill({ section: 'harness', issue: 'grandchild write', insight: 'g' });
          return 'g done';
        });
        parentSaw = issues(parent.book);
        throw new Error('parent crashes after its child merged');
      }),
    );
    expect(grandchildOutcome).toMatchObject({ status: 'committed' });
    // the parent saw the grandchild's merged work in its own draft...
    expect(parentSaw).toEqual(['seed issue', 'parent write', 'grandchild write']);
    if (outcome.status !== 'committed') throw new Error('root failed');
    const child = outcome.output;
    if (child.status !== 'failed') throw new Error('parent did not fail');
    expect(child.failure.kind).toBe('crashed');
    expect(child.failure.discarded).toEqual({ ops: 2, descendants: 1 });
    // ...but nothing of either reaches the root
    expect(issues(rt.book)).toEqual(['seed issue']);
    expect(rt.audit).toEqual([]);
    expect(withLeases(replayAudit(initial, rt.audit), rt.book).toJSON()).toBe(rt.book.toJSON());
  });

  it('nobody but the session sees its draft', async () => {
    const rt = createRuntime({ book: seededBook() });
    const seen: Record<string, string[]> = {};
    await rt.run(async (root) => {
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      const writer = root.spawn(async (s) => {
        await s.tools.add_skill({ section: 'harness', issue: 'private', insight: 'x' });
        seen.writer = issues(s.book);
        await gate;
      });
      await Promise.resolve();
      const reader = await root.spawn(async (s) => issues(s.book));
      seen.sibling = reader.status === 'committed' ? reader.output : [];
      seen.parentBefore = issues(root.book);
      seen.runtimeBefore = issues(rt.book);
      release();
      await writer;
      seen.parentAfter = issues(root.book);
    });
    expect(seen).toEqual({
      writer: ['seed issue', 'private'],
      sibling: ['seed issue'],
      parentBefore: ['seed issue'],
      runtimeBefore: ['seed issue'],
      parentAfter: ['seed issue', 'private'],
    });
    expect(issues(rt.book)).toContain('private');
  });

  it('a child draft starts from its parent draft by reference, not a copy', async () => {
    const rt = createRuntime({ book: seededBook() });
    let same = false;
    await rt.run(async (root) => {
      await root.tools.add_skill({ section: 'harness', issue: 'root write', insight: 'r' });
      const rootBook = root.book;
      await root.spawn(async (child) => {
        same = child.book === rootBook;
      });
    });
    expect(same).toBe(true);
  });

  it('a session commits only after all of its children settle', async () => {
    const clock = new SimulatedClock();
    const rt = createRuntime({ clock });
    const order: string[] = [];
    const run = rt.run(async (root) => {
      void root.spawn(async (c) => {
        await c.sleep(100);
        await c.tools.add_skill({ section: 'harness', issue: 'late child', insight: 'x' });
        order.push('child body done');
      });
      order.push('root body done');
    });
    const outcome = await clock.settle(run);
    expect(outcome.status).toBe('committed');
    expect(order).toEqual(['root body done', 'child body done']);
    expect(issues(rt.book)).toEqual(['late child']);
  });
});

describe('timeouts and cancellation', () => {
  it('a timed-out session cancels its running descendants and keeps none of their work', async () => {
    const clock = new SimulatedClock();
    const rt = createRuntime({ book: seededBook(), clock });
    const signals: AbortSignal[] = [];
    const outcomes: unknown[] = [];
    const run = rt.run(async (root) =>
      root.spawn(
        async (parent: Session) => {
          signals.push(parent.signal);
          await parent.tools.add_skill({ section: 'harness', issue: 'parent write', insight: 'p' });
          await parent.spawn(async (quick) => {
            await quick.tools.add_skill({ section: 'harness', issue: 'merged then discarded', insight: 'q' });
          });
          const slow = parent.spawn(async (s: Session) => {
            signals.push(s.signal);
            await s.tools.add_skill({ section: 'harness', issue: 'slow child', insight: 's' });
            await s.sleep(10_000);
            return 'never';
          });
          outcomes.push(await slow);
          return 'never';
        },
        { timeoutMs: 50 },
      ),
    );
    const outcome = await clock.settle(run);
    if (outcome.status !== 'committed' || outcome.output.status !== 'failed') throw new Error('expected a failed child');
    const failure = outcome.output.failure;
    expect(failure.kind).toBe('timeout');
    expect(failure.discarded).toEqual({ ops: 2, descendants: 2 });
    expect(signals.every((s) => s.aborted)).toBe(true);
    expect(outcomes[0]).toMatchObject({ status: 'failed', failure: { kind: 'cancelled' } });
    expect(issues(rt.book)).toEqual(['seed issue']);
    expect(rt.liveSessions).toBe(0);
  });

  it('an explicit abort settles the session at once and drops its draft', async () => {
    const rt = createRuntime();
    let late: unknown;
    const outcome = await rt.run(async (root) =>
      root.spawn(async (s) => {
        await s.tools.add_skill({ section: 'harness', issue: 'dropped', insight: 'x' });
        s.abort('changed my mind');
        late = await s.tools.add_skill({ section: 'harness', issue: 'after abort', insight: 'x' });
        return 'ignored';
      }),
    );
    expect(late).toEqual({ error: expect.stringContaining('has ended') });
    if (outcome.status !== 'committed' || outcome.output.status !== 'failed') throw new Error('expected a failed child');
    expect(outcome.output.failure).toMatchObject({ kind: 'aborted', message: 'changed my mind', discarded: { ops: 1, descendants: 0 } });
    expect(rt.book.size).toBe(0);
  });
});
