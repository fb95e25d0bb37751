import { describe, expect, it } from 'vitest';
import { fromPromise } from 'xstate';
import type { AnyActorRef, InspectionEvent } from 'xstate';
import { createRuntime, SessionEventSchema, SimulatedClock } from '@cohort/runtime';
import type { RuntimeEvent, Session } from '@cohort/runtime';

const idOf = (e: InspectionEvent) => (e.actorRef as AnyActorRef).id;

describe('events$ and the inspector', () => {
  it('emits typed events for each step of each session, once', async () => {
    const rt = createRuntime({ runtimeId: 'rt' });
    const events: RuntimeEvent[] = [];
    rt.events$.subscribe((e) => events.push(e));
    await rt.run(async (s) => {
      await s.spawn(
        async (c: Session) => {
          await c.tools.add_skill({ section: 'harness', issue: 'x', insight: 'y' });
        },
        { name: 'writer' },
      );
      await s.spawn(async () => {
        throw new Error('boom');
      });
    });
    for (const e of events) expect(SessionEventSchema.safeParse(e).success).toBe(true);
    const kinds = events.map((e) => `${e.type}${'sessionId' in e ? ` ${e.sessionId}` : ''}`);
    expect(kinds).toEqual([
      'session.spawned rt.1',
      'session.spawned rt.2',
      'session.committed rt.2',
      'session.merged rt.2',
      'session.spawned rt.3',
      'session.failed rt.3',
      'session.committed rt.1',
      'session.merged rt.1',
    ]);
    expect(events[1]).toMatchObject({ name: 'writer', parentId: 'rt.1', depth: 1 });
    expect(events.find((e) => e.type === 'session.merged' && e.sessionId === 'rt.1')).toMatchObject({ into: 'root', revision: 1, ops: 1 });
  });

  it('session.merged and session.failed - carry what the session and its descendants were charged, whatever the outcome', async () => {
    const rt = createRuntime({ runtimeId: 'rt' });
    const settled = new Map<string, unknown>();
    rt.events$.subscribe((e) => {
      if ((e.type === 'session.merged' || e.type === 'session.failed') && e.charged) settled.set(`${e.type} ${e.sessionId}`, e.charged);
    });
    await rt.run(async (s) => {
      s.charge({ tokens: 10, requests: 1 });
      await s.spawn(
        async (c: Session) => {
          c.charge({ tokens: 100, requests: 1 });
        },
        { budget: { tokens: 500 } },
      );
      await s.spawn(async (c: Session) => {
        c.charge({ tokens: 7, requests: 2 });
        throw new Error('boom');
      });
    });
    expect(Object.fromEntries(settled)).toEqual({
      'session.merged rt.2': { tokens: 100, requests: 1 },
      'session.failed rt.3': { tokens: 7, requests: 2 },
      'session.merged rt.1': { tokens: 117, requests: 4 },
    });
  });

  it('passes xstate inspection through, so the live actor tree is visible', async () => {
    const seen: InspectionEvent[] = [];
    const rt = createRuntime({ runtimeId: 'rt', inspect: (e) => seen.push(e) });
    await rt.run(async (s) => s.spawn(async () => 'child'));
    const actors = seen.filter((e) => e.type === '@xstate.actor').map((e) => e.actorRef as AnyActorRef);
    expect(actors.map((a) => a.id)).toEqual(expect.arrayContaining(['cohort.root', 'cohort.deadlines', 'rt.1', 'rt.2']));
    // the actor tree is the session tree: a child under its parent, a root session under the root supervisor
    const child = actors.find((a) => a.id === 'rt.2');
    expect(child?._parent?.id).toBe('rt.1');
    expect(child?._parent?._parent?.id).toBe('cohort.root');
  });

  it('inspector - a session that spawned takes no machine step when a child stops (its children settle through the runtime)', async () => {
    const seen: InspectionEvent[] = [];
    const rt = createRuntime({ runtimeId: 'rt', inspect: (e) => seen.push(e) });
    await rt.run(async (s) => Promise.all([1, 2, 3].map(() => s.spawn(async () => 'child'))));
    await rt.close();
    const stepsOf = (id: string) =>
      seen.flatMap((e) => (e.type === '@xstate.snapshot' && (e.actorRef as AnyActorRef).id === id ? [e.event.type] : []));
    // each child's stop would otherwise be a step of its parent's machine, and a key in its state nodes' memo for good
    expect(stepsOf('rt.1').filter((type) => type.startsWith('xstate.done.actor.'))).toEqual([]);
    expect(stepsOf('rt.1')).toEqual(expect.arrayContaining(['BODY_DONE', 'MERGED']));
  });

  it('inspector - a named session is shown by its name and id', async () => {
    const seen: InspectionEvent[] = [];
    const rt = createRuntime({ runtimeId: 'rt', inspect: (e) => seen.push(e) });
    await rt.run(async (s) => s.spawn(async () => 'child', { name: 'researcher' }), { name: 'planner' });
    const ids = seen.filter((e) => e.type === '@xstate.actor').map((e) => (e.actorRef as AnyActorRef).id);
    expect(ids).toEqual(expect.arrayContaining(['planner (rt.1)', 'researcher (rt.2)']));
  });

  it('inspector - shows every step of a session, and the failure kind in its final state', async () => {
    const clock = new SimulatedClock();
    const seen: InspectionEvent[] = [];
    const rt = createRuntime({ runtimeId: 'rt', clock, inspect: (e) => seen.push(e) });
    await clock.settle(
      rt.run(async (s) => {
        await s.spawn(async () => 'fine', { name: 'quick' });
        await s.spawn(async (c) => c.sleep(1_000), { name: 'slow', timeoutMs: 10 });
      }),
    );
    const steps = (id: string) =>
      seen.flatMap((e) => {
        if (e.type !== '@xstate.snapshot' || idOf(e) !== id) return [];
        const snapshot = e.snapshot as unknown as {
          value: unknown;
          context: { name?: string; failure: { kind: string; category: string } | null };
        };
        return [{ value: snapshot.value, name: snapshot.context.name, failure: snapshot.context.failure }];
      });
    // the states of a session not settled yet are under one parent, `live`
    expect(steps('quick (rt.2)').map((x) => x.value)).toEqual([{ live: 'running' }, { live: 'committing' }, 'committed']);
    const slow = steps('slow (rt.3)');
    expect(slow.map((x) => x.value)).toEqual([{ live: 'running' }, 'failed']);
    expect(slow.at(-1)).toMatchObject({ name: 'slow', failure: { kind: 'timeout', category: 'interruption' } });
    const events = seen.flatMap((e) => (e.type === '@xstate.event' && idOf(e) === 'slow (rt.3)' ? [e.event.type] : []));
    expect(events).toContain('TIMEOUT');
    await rt.close();
  });

  it('inspector - a retried attempt is seen retrying, then handing its call on', async () => {
    const seen: InspectionEvent[] = [];
    const rt = createRuntime({ runtimeId: 'rt', inspect: (e) => seen.push(e) });
    const outcome = await rt.run(async (s) =>
      s.spawn(
        async (c) => {
          if (c.attempt === 1) throw new Error('flaky');
          return 'second time lucky';
        },
        { retry: { attempts: 1 } },
      ),
    );
    expect(outcome).toMatchObject({ status: 'committed', output: { status: 'committed', sessionId: 'rt.3', attempt: 2 } });
    const values = seen.flatMap((e) =>
      e.type === '@xstate.snapshot' && idOf(e) === 'rt.2' ? [(e.snapshot as unknown as { value: unknown }).value] : [],
    );
    expect(values).toEqual([{ live: 'running' }, 'retrying', 'retried']);
    await rt.close();
  });

  it('runs any xstate actor logic as a body', async () => {
    const rt = createRuntime({ runtimeId: 'rt' });
    const logic = fromPromise(async ({ input }: { input: { session: Session } }) => {
      await input.session.tools.add_skill({ section: 'harness', issue: 'from logic', insight: 'x' });
      return 'logic output';
    });
    const outcome = await rt.run(logic);
    expect(outcome).toMatchObject({ status: 'committed', output: 'logic output' });
    expect(rt.book.size).toBe(1);
  });
});

describe('the Stately inspector', () => {
  it('receives the live actor tree through @statelyai/inspect, offline', async () => {
    const { createInspector } = await import('@statelyai/inspect');
    const sent: { type: string; sessionId?: string }[] = [];
    const inspector = createInspector({ send: (event) => sent.push(event as { type: string; sessionId?: string }) });
    const rt = createRuntime({ runtimeId: 'rt', inspect: inspector.inspect });
    // a timed child arms the deadline watcher with an event that names the session's actor
    await rt.run(async (s) => s.spawn(async () => 'child', { timeoutMs: 60_000 }));
    await new Promise((r) => setTimeout(r, 10));
    const actorIds = sent.filter((e) => e.type === '@xstate.actor').map((e) => e.sessionId);
    expect(actorIds.length).toBeGreaterThanOrEqual(4);
    expect(sent.some((e) => e.type === '@xstate.snapshot')).toBe(true);
    inspector.stop();
  });
});
