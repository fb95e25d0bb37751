import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, initialTransition, transition } from 'xstate';
import type { SnapshotFrom } from 'xstate';
import { mergeActorId, supervisorMachine } from '../src/supervisorMachine.ts';
import type { RootCommit, SupervisorEvent, SupervisorEmitted } from '../src/supervisorMachine.ts';
import type { SessionAnswer } from '../src/sessionMachine.ts';
import type { Commit } from '../src/Commit.ts';
import { formatSessionId } from '../src/SessionId.ts';

type Snapshot = SnapshotFrom<typeof supervisorMachine>;
type Action = { type: string; params?: unknown };

function feed(snapshot: Snapshot, ...events: SupervisorEvent[]): [Snapshot, Action[]] {
  let step: [Snapshot, Action[]] = [snapshot, []];
  for (const event of events) step = transition(supervisorMachine, step[0], event) as [Snapshot, Action[]];
  return step;
}

/** What a step did, as lines: `answer t.1`, `backpressure t.3 (2 queued)`, `spawn merge:0 t.1`, `stop merge:0`. */
const did = (actions: Action[]) =>
  actions.flatMap((a) => {
    const params = a.params as { event?: SupervisorEmitted; id?: string; input?: RootCommit } | undefined;
    if (a.type === 'xstate.emit' && params?.event) {
      const e = params.event;
      return [`${e.type} ${e.sessionId}${e.type === 'backpressure' ? ` (${e.queued} queued)` : ''}`];
    }
    if (a.type === 'xstate.spawnChild') return [`spawn ${params?.id} ${params?.input?.sessionId}`];
    if (a.type === 'xstate.stopChild') return [`stop ${(a.params as { id: string }).id}`];
    return [];
  });

const sid = (n: number) => formatSessionId('t', n);

function commitOf(n: number): SupervisorEvent {
  const sessionId = sid(n);
  const commit: Commit = { sessionId, path: [sessionId], baseRevision: 0, entries: [], descendants: 0, textLength: 0, output: undefined };
  return { type: 'COMMIT', sessionId, commit };
}

const merged = (revision: number): SessionAnswer => ({ type: 'MERGED', revision, ops: 0, added: [], dropped: [] });
const ended = (slot: number, answer: SessionAnswer = merged(slot + 1)): SupervisorEvent => ({
  type: `xstate.done.actor.${mergeActorId(slot)}`,
  actorId: mergeActorId(slot),
  output: answer,
});

const inFlight = (s: Snapshot) => s.context.inFlight.map((m) => `${m.sessionId}@${m.slot}`);
const waiting = (s: Snapshot) => s.context.waiting.map((w) => w.sessionId);

/** A supervisor of queue length 2 after `events`. */
const supervisor = (...events: SupervisorEvent[]) =>
  feed(initialTransition(supervisorMachine, { maxQueue: 2 })[0] as Snapshot, ...events)[0];

describe('supervisorMachine - every state against every event', () => {
  it('supervisorMachine - a supervisor starts open, with nothing in flight or waiting', () => {
    const s = supervisor();
    expect(s.value).toBe('open');
    expect(s.context).toMatchObject({ ownerId: 'root', inFlight: [], waiting: [], maxQueue: 2 });
  });

  it('supervisorMachine - a commit while open with room starts its merge actor in the lowest free slot', () => {
    const [one, first] = feed(supervisor(), commitOf(1));
    expect(did(first)).toEqual(['spawn merge:0 t.1']);
    const [two, second] = feed(one, commitOf(2));
    expect(did(second)).toEqual(['spawn merge:1 t.2']);
    expect(inFlight(two)).toEqual(['t.1@0', 't.2@1']);
    expect(Object.keys(two.children)).toEqual(['merge:0', 'merge:1']);
    // slot 0 freed: the next commit takes it again
    const [again, third] = feed(two, ended(0), commitOf(3));
    expect(did(third)).toEqual(['spawn merge:0 t.3']);
    expect(inFlight(again)).toEqual(['t.2@1', 't.3@0']);
  });

  it('supervisorMachine - a commit while open and full waits for room, and says so (back-pressure)', () => {
    const [full, actions] = feed(supervisor(commitOf(1), commitOf(2)), commitOf(3));
    expect(did(actions)).toEqual(['backpressure t.3 (2 queued)']);
    expect(waiting(full)).toEqual(['t.3']);
    expect(inFlight(full)).toEqual(['t.1@0', 't.2@1']);
  });

  it('supervisorMachine - a merge ending while open answers its session, then lets the first waiting commit into its slot', () => {
    const [after, actions] = feed(supervisor(commitOf(1), commitOf(2), commitOf(3), commitOf(4)), ended(0));
    expect(did(actions)).toEqual(['answer t.1', 'stop merge:0', 'spawn merge:0 t.3']);
    expect(inFlight(after)).toEqual(['t.2@1', 't.3@0']);
    expect(waiting(after)).toEqual(['t.4']);
  });

  it('supervisorMachine - a merge ending with nothing waiting answers its session and frees its slot', () => {
    const rejected: SessionAnswer = { type: 'REJECTED', failure: { kind: 'conflict', category: 'error', message: 'conflicts' } };
    const [after, actions] = feed(supervisor(commitOf(1)), ended(0, rejected));
    expect(did(actions)).toEqual(['answer t.1', 'stop merge:0']);
    expect((actions.find((a) => a.type === 'xstate.emit')?.params as { event: SupervisorEmitted } | undefined)?.event).toMatchObject({
      answer: rejected,
    });
    expect(after.context.inFlight).toEqual([]);
    expect(after.children).toEqual({});
  });

  it('supervisorMachine - a done event of an actor that is not one of its merges is ignored', () => {
    const before = supervisor(commitOf(1));
    const [after, actions] = feed(before, ended(1));
    expect(did(actions)).toEqual([]);
    expect(after.context).toEqual(before.context);
  });

  it('supervisorMachine - a close while open refuses what waits, and closes', () => {
    const [closed, actions] = feed(supervisor(commitOf(1), commitOf(2), commitOf(3)), { type: 'CLOSE' });
    expect(closed.value).toBe('closed');
    expect(did(actions)).toEqual(['refuse t.3']);
    expect(waiting(closed)).toEqual([]);
    expect(inFlight(closed)).toEqual(['t.1@0', 't.2@1']);
  });

  it('supervisorMachine - a commit while closed is refused', () => {
    const [closed, actions] = feed(supervisor({ type: 'CLOSE' }), commitOf(4));
    expect(did(actions)).toEqual(['refuse t.4']);
    expect(closed.context).toMatchObject({ inFlight: [], waiting: [] });
  });

  it('supervisorMachine - a merge ending while closed still answers its session', () => {
    const [after, actions] = feed(supervisor(commitOf(1), commitOf(2), { type: 'CLOSE' }), ended(1), ended(0));
    expect(did(actions)).toEqual(['answer t.1', 'stop merge:0']);
    expect(after.value).toBe('closed');
    expect(after.context).toMatchObject({ inFlight: [], waiting: [] });
    // a supervisor never stops on its own: the sessions under it may still tell it they are done
    expect(after.status).toBe('active');
  });

  it('supervisorMachine - a close while closed changes nothing', () => {
    const before = supervisor({ type: 'CLOSE' });
    const [after, actions] = feed(before, { type: 'CLOSE' });
    expect(did(actions)).toEqual([]);
    expect(after.value).toBe('closed');
  });
});

describe('supervisorMachine - merge actors', () => {
  /** A supervisor actor whose merges wait until the test answers them; `started` lists the merges begun, in order. */
  function gatedSupervisor(maxQueue: number) {
    const started: string[] = [];
    const pending = new Map<string, (answer: SessionAnswer) => void>();
    const merge = fromPromise<SessionAnswer, RootCommit>(({ input }) => {
      started.push(input.sessionId);
      return new Promise((resolve) => pending.set(input.sessionId, resolve));
    });
    const answered: string[] = [];
    const actor = createActor(supervisorMachine.provide({ actors: { merge } }), { input: { maxQueue } });
    actor.on('answer', (e) => answered.push(`${e.sessionId} ${e.answer.type}`));
    actor.start();
    const answer = async (n: number) => {
      pending.get(sid(n))?.(merged(n));
      await new Promise((r) => setTimeout(r, 0));
    };
    return { actor, started, answered, answer };
  }

  it('supervisorMachine - a merge starts as its commit arrives, so merges are decided one at a time, in arrival order', () => {
    const { actor, started } = gatedSupervisor(3);
    actor.send(commitOf(1));
    expect(started).toEqual(['t.1']);
    actor.send(commitOf(2));
    actor.send(commitOf(3));
    expect(started).toEqual(['t.1', 't.2', 't.3']);
  });

  it('supervisorMachine - a session is answered only when its merge actor ends, whatever the order', async () => {
    const { actor, started, answered, answer } = gatedSupervisor(1);
    for (const n of [1, 2, 3]) actor.send(commitOf(n));
    expect(started).toEqual(['t.1']);
    await answer(1);
    expect(answered).toEqual(['t.1 MERGED']);
    expect(started).toEqual(['t.1', 't.2']);
    await answer(2);
    await answer(3);
    expect(answered).toEqual(['t.1 MERGED', 't.2 MERGED', 't.3 MERGED']);
    // one slot, reused: the merge actors' names stay bounded by the queue's length
    expect(actor.getSnapshot().children).toEqual({});
    expect(actor.getSnapshot().context.inFlight).toEqual([]);
  });

  it("supervisorMachine - without a merge of the runtime's, every commit is refused as a defect", async () => {
    const actor = createActor(supervisorMachine, { input: { maxQueue: 1 } });
    const answers: SessionAnswer[] = [];
    actor.on('answer', (e) => answers.push(e.answer));
    actor.start();
    actor.send(commitOf(1));
    await new Promise((r) => setTimeout(r, 0));
    expect(answers).toMatchObject([{ type: 'REJECTED', failure: { kind: 'crashed', category: 'defect' } }]);
  });
});
