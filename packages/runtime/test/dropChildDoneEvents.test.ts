import { describe, expect, it } from 'vitest';
import { assign, createActor, fromPromise, setup, spawnChild } from 'xstate';
import type { AnyActorRef, InspectionEvent } from 'xstate';
import { createRuntime } from '@cohort/runtime';
import { dropChildDoneEvents } from '../src/internal/dropChildDoneEvents.ts';

const tick = () => new Promise((r) => setTimeout(r, 0));

describe('dropChildDoneEvents', () => {
  /** A machine that counts the done events it takes, and spawns a promise child of its own on `SPAWN`. */
  const counter = setup({ actors: { job: fromPromise(async () => 'done') } }).createMachine({
    context: { done: [] as string[] },
    on: {
      SPAWN: { actions: spawnChild('job', { id: 'job' }) },
      'xstate.done.actor.*': { actions: assign({ done: ({ context, event }) => [...context.done, String(event.actorId)] }) },
    },
  });

  it('dropChildDoneEvents - the done event of an actor that only joined the system never reaches the machine', async () => {
    const parent = createActor(counter).start();
    dropChildDoneEvents(parent);
    createActor(
      fromPromise(async () => 'session'),
      { id: 'rt.1', parent },
    ).start();
    await tick();
    expect(parent.getSnapshot().context.done).toEqual([]);
  });

  it('dropChildDoneEvents - the done event of an actor the machine spawned itself goes through', async () => {
    const parent = createActor(counter).start();
    dropChildDoneEvents(parent);
    parent.send({ type: 'SPAWN' });
    await tick();
    expect(parent.getSnapshot().context.done).toEqual(['job']);
  });

  it('dropChildDoneEvents - the root supervisor merges sequential commits with one merge actor, started once', async () => {
    const seen: InspectionEvent[] = [];
    const rt = createRuntime({ runtimeId: 'rt', inspect: (e) => seen.push(e) });
    for (let i = 0; i < 5; i++) await rt.run(async (s) => s.tools.add_skill({ section: 'harness', issue: `root ${i}`, insight: 'x' }));
    await rt.close();
    const merges = seen
      .filter((e) => e.type === '@xstate.actor')
      .map((e) => (e.actorRef as AnyActorRef).id)
      .filter((id) => id.startsWith('merge'));
    expect(merges).toEqual(['merge']);
    expect(rt.book.size).toBe(5);
  });
});
