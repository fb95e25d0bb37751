import { afterEach, describe, expect, it, vi } from 'vitest';
import { createRuntime, defaultLimits } from '@cohort/runtime';
import type { Runtime, RuntimeEvent, Session } from '@cohort/runtime';
import { SessionNode } from '../src/internal/SessionNode.ts';

/** Event-loop turns until the runtime's tree stops growing (it grows on microtasks only). */
async function grown(rt: Runtime): Promise<number> {
  for (let last = -1; ; ) {
    await new Promise((resolve) => setImmediate(resolve));
    if (rt.liveSessions === last) return last;
    last = rt.liveSessions;
  }
}

/** A session that waits until it is cancelled (a model call that takes its time). */
const waits = async (s: Session): Promise<void> => {
  await new Promise((resolve) => s.signal.addEventListener('abort', resolve));
};

/** A comb: each session spawns the next one down and a leaf beside it, and waits. */
const comb = async (s: Session): Promise<void> => {
  await null;
  const kids = [s.spawn(comb), s.spawn(waits)];
  await waits(s);
  await Promise.all(kids);
};

afterEach(() => {
  vi.restoreAllMocks();
});

describe('a runaway tree', () => {
  it('runaway - close() after a tree 1,000 sessions deep ends every session, with no defect', async () => {
    const rt = createRuntime({ limits: { maxDepth: 1_000 } });
    const defects: RuntimeEvent[] = [];
    rt.events$.subscribe((e) => e.type === 'runtime.defect' && defects.push(e));
    const run = rt.run(comb);
    expect(await grown(rt)).toBe(2_001);
    await rt.close();
    expect(defects).toEqual([]);
    expect(rt.liveSessions).toBe(0);
    expect(await run).toMatchObject({ status: 'failed', failure: { kind: 'cancelled', discarded: { descendants: 2_000 } } });
  });

  it('runaway - cancelling a tree visits each session a bounded number of times, however deep (O(n), counted)', async () => {
    const visits = vi.spyOn(SessionNode.prototype, 'children');
    const rt = createRuntime({ limits: { maxDepth: 1_000 } });
    const run = rt.run(comb);
    const sessions = await grown(rt);
    visits.mockClear();
    await rt.close();
    await run;
    // each session's children are listed a few times (to count and to cancel them), not once per ancestor
    expect(visits.mock.calls.length).toBeLessThanOrEqual(4 * sessions);
  });

  it('runaway - a body that spawns before its first await, 3,000 deep, does not overflow the stack: every session ends and close() leaves none live', async () => {
    const rt = createRuntime({ limits: { maxDepth: 3_000 } });
    const defects: RuntimeEvent[] = [];
    rt.events$.subscribe((e) => e.type === 'runtime.defect' && defects.push(e));
    const leaf = async (): Promise<void> => undefined;
    // no await before the spawns: each child's body would start inside its parent's spawn call
    const chain = (s: Session): Promise<unknown> => Promise.all([s.spawn(chain), s.spawn(leaf)]);
    const outcome = await rt.run(chain);
    expect(outcome.status).toBe('committed');
    expect(rt.liveSessions).toBe(0);
    await rt.close();
    expect(rt.liveSessions).toBe(0);
    expect(defects).toEqual([]);
  });

  it('runaway - under the default limits a tree that keeps spawning is refused at maxSessions (20,000 live)', async () => {
    expect(defaultLimits.maxSessions).toBe(20_000);
    const rt = createRuntime();
    const refused: string[] = [];
    rt.events$.subscribe((e) => e.type === 'session.failed' && e.failure.kind === 'limit_exceeded' && refused.push(e.failure.message));
    const fanOut =
      (width: number) =>
      async (s: Session): Promise<void> => {
        await null;
        const kids = Array.from({ length: width }, () => s.spawn(s.depth < 1 ? fanOut(width) : waits));
        await waits(s);
        await Promise.all(kids);
      };
    const run = rt.run(fanOut(150)); // 1 + 150 + 22,500 sessions asked for
    expect(await grown(rt)).toBe(20_000);
    expect(refused.length).toBe(1 + 150 + 150 * 150 - 20_000);
    expect(refused[0]).toContain('maxSessions 20000 reached');
    await rt.close();
    expect(rt.liveSessions).toBe(0);
    await run;
  });
});
