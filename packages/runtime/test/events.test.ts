import { describe, expect, it } from 'vitest';
import { fromPromise } from 'xstate';
import type { AnyActorRef, InspectionEvent } from 'xstate';
import { createRuntime, SessionEventSchema, SimulatedClock } from '@cohort/runtime';
import type { RuntimeEvent, Session } from '@cohort/runtime';

const idOf = (e: InspectionEvent) => (e.actorRef as AnyActorRef).id;

describe('events$ and the inspector', () => {
  it('emits typed events for each step of each session, once', async () => {
    const rt = createRuntime();
    const events: RuntimeEvent[] = [];
    rt.events$.subscribe((e) => events.push(e));
    await rt.run(async (s) => {
      await s.spawn(async (c: Session) => {
        await c.tools.add_skill({ section: 'harness', issue: 'x', insight: 'y' });
      }, { name: 'writer' });
      await s.spawn(async () => {
        throw new Error('boom');
      });
    });
    for (const e of events) expect(SessionEventSchema.safeParse(e).success).toBe(true);
    const kinds = events.map((e) => `${e.type}${'sessionId' in e ? ` ${e.sessionId}` : ''}`);
    expect(kinds).toEqual([
      'session.spawned s1',
      'session.spawned s2',
      'session.committed s2',
      'session.merged s2',
      'session.spawned s3',
      'session.failed s3',
      'session.committed s1',
      'session.merged s1',
    ]);
    expect(events[1]).toMatchObject({ name: 'writer', parentId: 's1', depth: 1 });
    expect(events.find((e) => e.type === 'session.merged' && e.sessionId === 's1')).toMatchObject({ into: 'root', revision: 1, ops: 1 });
  });

  it("session.merged and session.failed - carry what the session and its descendants were charged, whatever the outcome", async () => {
    const rt = createRuntime();
    const settled = new Map<string, unknown>();
    rt.events$.subscribe((e) => {
      if ((e.type === 'session.merged' || e.type === 'session.failed') && e.charged) settled.set(`${e.type} ${e.sessionId}`, e.charged);
    });
    await rt.run(async (s) => {
      s.charge({ tokens: 10, requests: 1 });
      await s.spawn(async (c: Session) => {
        c.charge({ tokens: 100, requests: 1 });
      }, { budget: { tokens: 500 } });
      await s.spawn(async (c: Session) => {
        c.charge({ tokens: 7, requests: 2 });
        throw new Error('boom');
      });
    });
    expect(Object.fromEntries(settled)).toEqual({
      'session.merged s2': { tokens: 100, requests: 1 },
      'session.failed s3': { tokens: 7, requests: 2 },
      'session.merged s1': { tokens: 117, requests: 4 },
    });
  });

  it('passes xstate inspection through, so the live actor tree is visible', async () => {
    const seen: InspectionEvent[] = [];
    const rt = createRuntime({ inspect: (e) => seen.push(e) });
    await rt.run(async (s) => s.spawn(async () => 'child'));
    const actors = seen.filter((e) => e.type === '@xstate.actor').map((e) => e.actorRef as AnyActorRef);
    expect(actors.map((a) => a.id)).toEqual(expect.arrayContaining(['cohort.root', 'cohort.deadlines', 's1', 's2', 's1.supervisor']));
    const child = actors.find((a) => a.id === 's2');
    expect(child?._parent?.id).toBe('s1.supervisor');
    expect(child?._parent?._parent?.id).toBe('s1');
  });

  it('inspector - a named session is shown by its name and id', async () => {
    const seen: InspectionEvent[] = [];
    const rt = createRuntime({ inspect: (e) => seen.push(e) });
    await rt.run(async (s) => s.spawn(async () => 'child', { name: 'researcher' }), { name: 'planner' });
    const ids = seen.filter((e) => e.type === '@xstate.actor').map((e) => (e.actorRef as AnyActorRef).id);
    expect(ids).toEqual(expect.arrayContaining(['planner (s1)', 'researcher (s2)', 's1.supervisor']));
  });

  it('inspector - shows every step of a session, and the failure kind in its final state', async () => {
    const clock = new SimulatedClock();
    const seen: InspectionEvent[] = [];
    const rt = createRuntime({ clock, inspect: (e) => seen.push(e) });
    await clock.settle(rt.run(async (s) => {
      await s.spawn(async () => 'fine', { name: 'quick' });
      await s.spawn(async (c) => c.sleep(1_000), { name: 'slow', timeoutMs: 10 });
    }));
    const steps = (id: string) => seen.flatMap((e) => {
      if (e.type !== '@xstate.snapshot' || idOf(e) !== id) return [];
      const snapshot = e.snapshot as unknown as { value: string; context: { name?: string; failure: { kind: string; category: string } | null } };
      return [{ value: snapshot.value, name: snapshot.context.name, failure: snapshot.context.failure }];
    });
    expect(steps('quick (s2)').map((x) => x.value)).toEqual(['running', 'committing', 'committed']);
    const slow = steps('slow (s3)');
    expect(slow.map((x) => x.value)).toEqual(['running', 'failed']);
    expect(slow.at(-1)).toMatchObject({ name: 'slow', failure: { kind: 'timeout', category: 'interruption' } });
    const events = seen.flatMap((e) => (e.type === '@xstate.event' && idOf(e) === 'slow (s3)' ? [e.event.type] : []));
    expect(events).toContain('TIMEOUT');
    await rt.close();
  });

  it('inspector - a retried attempt is seen retrying, then handing its call on', async () => {
    const seen: InspectionEvent[] = [];
    const rt = createRuntime({ inspect: (e) => seen.push(e) });
    const outcome = await rt.run(async (s) =>
      s.spawn(async (c) => {
        if (c.attempt === 1) throw new Error('flaky');
        return 'second time lucky';
      }, { retry: { attempts: 1 } }),
    );
    expect(outcome).toMatchObject({ status: 'committed', output: { status: 'committed', sessionId: 's3', attempt: 2 } });
    const values = seen.flatMap((e) => (e.type === '@xstate.snapshot' && idOf(e) === 's2' ? [(e.snapshot as unknown as { value: string }).value] : []));
    expect(values).toEqual(['running', 'retrying', 'retried']);
    await rt.close();
  });

  it('runs any xstate actor logic as a body', async () => {
    const rt = createRuntime();
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
    const rt = createRuntime({ inspect: inspector.inspect });
    // a timed child arms the deadline watcher with an event that names the session's actor
    await rt.run(async (s) => s.spawn(async () => 'child', { timeoutMs: 60_000 }));
    await new Promise((r) => setTimeout(r, 10));
    const actorIds = sent.filter((e) => e.type === '@xstate.actor').map((e) => e.sessionId);
    expect(actorIds.length).toBeGreaterThanOrEqual(4);
    expect(sent.some((e) => e.type === '@xstate.snapshot')).toBe(true);
    inspector.stop();
  });
});
