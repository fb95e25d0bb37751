import { describe, expect, it } from 'vitest';
import { createActor, initialTransition, transition } from 'xstate';
import type { SnapshotFrom } from 'xstate';
import { mergeActor, supervisorMachine } from '../src/supervisorMachine.ts';
import type { MergeRequest, SupervisorEvent, SupervisorEmitted } from '../src/supervisorMachine.ts';
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

/** What a step did, as lines: `answer t.1`, `backpressure t.3 (2 queued)`, `merge t.1` (handed to the merge actor). */
const did = (actions: Action[]) =>
  actions.flatMap((a) => {
    const params = a.params as { event?: SupervisorEmitted | MergeRequest } | undefined;
    const e = params?.event;
    if (a.type === 'xstate.emit' && e && e.type !== 'MERGE') {
      return [`${e.type} ${e.sessionId}${e.type === 'backpressure' ? ` (${e.queued} queued)` : ''}`];
    }
    if (a.type === 'xstate.sendTo' && e?.type === 'MERGE') return [`merge ${e.sessionId}`];
    return [];
  });

const sid = (n: number) => formatSessionId('t', n);

function commitOf(n: number): SupervisorEvent {
  const sessionId = sid(n);
  const commit: Commit = { sessionId, path: [sessionId], baseRevision: 0, entries: [], descendants: 0, textLength: 0, output: undefined };
  return { type: 'COMMIT', sessionId, commit };
}

const merged = (revision: number): SessionAnswer => ({ type: 'MERGED', revision, ops: 0, added: [], dropped: [] });
const ended = (n: number, answer: SessionAnswer = merged(n)): SupervisorEvent => ({ type: 'MERGED', sessionId: sid(n), answer });

const inFlight = (s: Snapshot) => [...s.context.inFlight];
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

  it('supervisorMachine - a commit while open with room goes to its one merge actor at once', () => {
    const [one, first] = feed(supervisor(), commitOf(1));
    expect(did(first)).toEqual(['merge t.1']);
    const [two, second] = feed(one, commitOf(2));
    expect(did(second)).toEqual(['merge t.2']);
    expect(inFlight(two)).toEqual(['t.1', 't.2']);
    // one merge actor for the supervisor's life, however many commits
    expect(Object.keys(two.children)).toEqual(['merge']);
    const [again, third] = feed(two, ended(1), commitOf(3));
    expect(did(third)).toEqual(['merge t.3']);
    expect(inFlight(again)).toEqual(['t.2', 't.3']);
  });

  it('supervisorMachine - a commit while open and full waits for room, and says so (back-pressure)', () => {
    const [full, actions] = feed(supervisor(commitOf(1), commitOf(2)), commitOf(3));
    expect(did(actions)).toEqual(['backpressure t.3 (2 queued)']);
    expect(waiting(full)).toEqual(['t.3']);
    expect(inFlight(full)).toEqual(['t.1', 't.2']);
  });

  it('supervisorMachine - a merge ending while open answers its session, then hands the first waiting commit to the merge actor', () => {
    const [after, actions] = feed(supervisor(commitOf(1), commitOf(2), commitOf(3), commitOf(4)), ended(1));
    expect(did(actions)).toEqual(['answer t.1', 'merge t.3']);
    expect(inFlight(after)).toEqual(['t.2', 't.3']);
    expect(waiting(after)).toEqual(['t.4']);
  });

  it('supervisorMachine - a merge ending with nothing waiting answers its session and frees its place in the queue', () => {
    const rejected: SessionAnswer = { type: 'REJECTED', failure: { kind: 'conflict', category: 'error', message: 'conflicts' } };
    const [after, actions] = feed(supervisor(commitOf(1)), ended(1, rejected));
    expect(did(actions)).toEqual(['answer t.1']);
    expect((actions.find((a) => a.type === 'xstate.emit')?.params as { event: SupervisorEmitted } | undefined)?.event).toMatchObject({
      answer: rejected,
    });
    expect(after.context.inFlight).toEqual([]);
  });

  it('supervisorMachine - an answer for a session whose merge is not in flight is ignored', () => {
    const before = supervisor(commitOf(1));
    const [after, actions] = feed(before, ended(2));
    expect(did(actions)).toEqual([]);
    expect(after.context).toEqual(before.context);
  });

  it('supervisorMachine - a close while open refuses what waits, and closes', () => {
    const [closed, actions] = feed(supervisor(commitOf(1), commitOf(2), commitOf(3)), { type: 'CLOSE' });
    expect(closed.value).toBe('closed');
    expect(did(actions)).toEqual(['refuse t.3']);
    expect(waiting(closed)).toEqual([]);
    expect(inFlight(closed)).toEqual(['t.1', 't.2']);
  });

  it('supervisorMachine - a commit while closed is refused', () => {
    const [closed, actions] = feed(supervisor({ type: 'CLOSE' }), commitOf(4));
    expect(did(actions)).toEqual(['refuse t.4']);
    expect(closed.context).toMatchObject({ inFlight: [], waiting: [] });
  });

  it('supervisorMachine - a merge ending while closed still answers its session', () => {
    const [after, actions] = feed(supervisor(commitOf(1), commitOf(2), { type: 'CLOSE' }), ended(2), ended(1));
    expect(did(actions)).toEqual(['answer t.1']);
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

describe('supervisorMachine - the merge actor', () => {
  /** A supervisor actor whose merges wait until the test answers them; `started` lists the merges begun, in order. */
  function gatedSupervisor(maxQueue: number) {
    const started: string[] = [];
    const pending = new Map<string, (answer: SessionAnswer) => void>();
    const merge = mergeActor(({ sessionId }) => {
      started.push(sessionId);
      return new Promise((resolve) => pending.set(sessionId, resolve));
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

  it('supervisorMachine - a session is answered only when its merge is, whatever the order', async () => {
    const { actor, started, answered, answer } = gatedSupervisor(1);
    for (const n of [1, 2, 3]) actor.send(commitOf(n));
    expect(started).toEqual(['t.1']);
    await answer(1);
    expect(answered).toEqual(['t.1 MERGED']);
    expect(started).toEqual(['t.1', 't.2']);
    await answer(2);
    await answer(3);
    expect(answered).toEqual(['t.1 MERGED', 't.2 MERGED', 't.3 MERGED']);
    // one merge actor throughout, still there for the next commit
    expect(Object.keys(actor.getSnapshot().children)).toEqual(['merge']);
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
