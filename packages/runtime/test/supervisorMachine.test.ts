import { describe, expect, it } from 'vitest';
import { initialTransition, transition } from 'xstate';
import type { SnapshotFrom } from 'xstate';
import { supervisorMachine } from '../src/supervisorMachine.ts';
import type { SupervisorEvent, SupervisorInput } from '../src/supervisorMachine.ts';
import type { Commit } from '../src/Commit.ts';
import { formatSessionId } from '../src/SessionId.ts';

type Snapshot = SnapshotFrom<typeof supervisorMachine>;
type Action = { type: string; params?: unknown };

function start(input: SupervisorInput): Snapshot {
  return initialTransition(supervisorMachine, input)[0] as Snapshot;
}

function feed(snapshot: Snapshot, ...events: SupervisorEvent[]): [Snapshot, Action[]] {
  let step: [Snapshot, Action[]] = [snapshot, []];
  for (const event of events) step = transition(supervisorMachine, step[0], event) as [Snapshot, Action[]];
  return step;
}

const emitted = (actions: Action[]) =>
  actions.filter((a) => a.type === 'xstate.emit').map((a) => {
    const event = (a.params as { event: { type: string; sessionId?: string; queued?: number } }).event;
    return `${event.type} ${event.sessionId ?? ''}${event.queued !== undefined ? ` (${event.queued} queued)` : ''}`.trim();
  });

function commitOf(n: number): SupervisorEvent {
  const sessionId = formatSessionId('t', n);
  const commit: Commit = { sessionId, path: [sessionId], baseRevision: 0, entries: [], descendants: 0, textLength: 0, output: undefined };
  return { type: 'COMMIT', sessionId, commit };
}

const durable = (n: number): SupervisorEvent => ({
  type: 'DURABLE', sessionId: formatSessionId('t', n), answer: { type: 'MERGED', revision: n, ops: 0, added: [], dropped: [] },
});

describe('supervisorMachine - the root supervisor', () => {
  const root = () => start({ maxQueue: 2 });

  it('supervisorMachine - keeps merges in flight until durable, and a full queue makes commits wait', () => {
    const [full, actions] = feed(root(), commitOf(1), commitOf(2));
    expect(emitted(actions)).toEqual(['merge t.2']);
    expect(full.context.inFlight).toEqual(['t.1', 't.2']);
    const [waiting, backpressure] = feed(full, commitOf(3));
    expect(emitted(backpressure)).toEqual(['backpressure t.3 (2 queued)']);
    expect(waiting.context.waiting.map((w) => w.sessionId)).toEqual(['t.3']);
  });

  it('supervisorMachine - DURABLE answers the session and lets the next waiting commit in, in order', () => {
    const [waiting] = feed(root(), commitOf(1), commitOf(2), commitOf(3), commitOf(4));
    const [after, actions] = feed(waiting, durable(1));
    expect(emitted(actions)).toEqual(['answer t.1', 'merge t.3']);
    expect(after.context.inFlight).toEqual(['t.2', 't.3']);
    expect(after.context.waiting.map((w) => w.sessionId)).toEqual(['t.4']);
  });

  it('supervisorMachine - CLOSE refuses what waits and new commits, and still answers what is in flight', () => {
    const [waiting] = feed(root(), commitOf(1), commitOf(2), commitOf(3));
    const [closed, closing] = feed(waiting, { type: 'CLOSE' });
    expect(closed.value).toBe('closed');
    expect(emitted(closing)).toEqual(['refuse t.3']);
    expect(emitted(feed(closed, commitOf(4))[1])).toEqual(['refuse t.4']);
    const [after, answered] = feed(closed, durable(1), durable(2));
    expect(emitted(answered)).toEqual(['answer t.2']);
    expect(after.context).toMatchObject({ inFlight: [], waiting: [] });
    // a supervisor never stops on its own: its children may still tell it they are done
    expect(after.status).toBe('active');
  });
});
