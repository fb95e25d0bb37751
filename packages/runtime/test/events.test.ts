import { describe, expect, it } from 'vitest';
import { fromPromise } from 'xstate';
import type { AnyActorRef, InspectionEvent } from 'xstate';
import { createRuntime, SessionEventSchema } from '@cohort/runtime';
import type { RuntimeEvent, Session } from '@cohort/runtime';

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

  it('passes xstate inspection through, so the live actor tree is visible', async () => {
    const seen: InspectionEvent[] = [];
    const rt = createRuntime({ inspect: (e) => seen.push(e) });
    await rt.run(async (s) => s.spawn(async () => 'child'));
    const actors = seen.filter((e) => e.type === '@xstate.actor').map((e) => e.actorRef as AnyActorRef);
    expect(actors.map((a) => a.id)).toEqual(expect.arrayContaining(['s1', 's2', 's1.supervisor']));
    const child = actors.find((a) => a.id === 's2');
    expect(child?._parent?.id).toBe('s1.supervisor');
    expect(child?._parent?._parent?.id).toBe('s1');
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
    await rt.run(async (s) => s.spawn(async () => 'child'));
    await new Promise((r) => setTimeout(r, 10));
    const actorIds = sent.filter((e) => e.type === '@xstate.actor').map((e) => e.sessionId);
    expect(actorIds.length).toBeGreaterThanOrEqual(4);
    expect(sent.some((e) => e.type === '@xstate.snapshot')).toBe(true);
    inspector.stop();
  });
});
