import { emit, enqueueActions, fromPromise, setup } from 'xstate';
import type { Actor, DoneActorEvent } from 'xstate';
import type { Commit } from './Commit.ts';
import { defect } from './FailureSeed.ts';
import type { SessionAnswer } from './sessionMachine.ts';
import type { SessionId } from './SessionId.ts';

/** A root session's commit, as the supervisor holds it and hands it to a merge. */
export interface RootCommit {
  readonly sessionId: SessionId;
  readonly commit: Commit;
}

/** A merge in flight: whose commit, and the slot its actor is named after (`merge:<slot>`). */
export interface MergeInFlight {
  readonly sessionId: SessionId;
  readonly slot: number;
}

/** The root supervisor's context: the commits in its hands. */
export interface SupervisorContext {
  /** What it merges into: `root` (the runtime's book, through the store). */
  readonly ownerId: 'root';
  /** Merges on their way to the store and not yet answered, in the order they started. */
  readonly inFlight: readonly MergeInFlight[];
  /** Commits waiting for room in a full queue (back-pressure), in arrival order. */
  readonly waiting: readonly RootCommit[];
  readonly maxQueue: number;
}

/** The input a supervisor machine starts from. */
export interface SupervisorInput {
  /** How many merges may wait for the store at once; more commits wait for room. */
  readonly maxQueue: number;
}

/** A merge actor's id: `merge:<slot>` (no session's actor id has a `:` without a `)` after it). */
export type MergeActorId = `merge:${number}`;

/** The events a supervisor takes. */
export type SupervisorEvent =
  /** The commit of root session `sessionId`, to merge. */
  | ({ type: 'COMMIT' } & RootCommit)
  /** The runtime closes: refuse what waits and what comes, still answer what is in flight. */
  | { type: 'CLOSE' }
  /** A merge actor ended: the store made the commit durable, or it was refused; `output` is the session's answer. */
  | DoneActorEvent<SessionAnswer, MergeActorId>;

/** What a supervisor asks the runtime to do (xstate `emit`). */
export type SupervisorEmitted =
  /** Tell the session the verdict on its commit. */
  | { type: 'answer'; sessionId: SessionId; answer: SessionAnswer }
  /** Refuse the commit of a session: the supervisor has closed. */
  | { type: 'refuse'; sessionId: SessionId }
  /** The commit of `sessionId` waits for room; `queued` merges are in flight. */
  | { type: 'backpressure'; sessionId: SessionId; queued: number };

/**
 * A merge: decides a root session's commit against the runtime's book, hands it to the store,
 * and resolves with the session's answer once the store made it durable (or refused it); it
 * never rejects. The runtime provides it (`supervisorMachine.provide({ actors: { merge } })`);
 * without it, every commit is refused as a defect.
 */
const unprovidedMerge = fromPromise<SessionAnswer, RootCommit>(async () => ({
  type: 'REJECTED',
  failure: defect('the root supervisor runs without a merge actor'),
}));

/**
 * The runtime's root supervisor: the merge queue in front of the store. Each root session's
 * commit is merged by a `merge` actor of its own (xstate `fromPromise`), started as the commit
 * arrives; the actor decides it at once (so merges are decided one at a time, in arrival order),
 * hands it to the store, and ends once the store made it durable, its output the session's
 * answer. At most `maxQueue` merges are in flight — a commit that finds the queue full waits for
 * room (back-pressure, not refusal) and takes the slot the next answered merge leaves. A closed
 * supervisor refuses what waits and what comes, and still answers the merges in flight. (A
 * session's children's commits need no such queue: the runtime merges each into the session's
 * draft as it arrives, and answers at once.)
 *
 * A merge actor is named after its slot, not its session: xstate keeps, per state node, a
 * record of every event type a machine met, and a done event is typed by its actor's id —
 * slot names keep those bounded by `maxQueue` in a long-running runtime (bench row 8).
 *
 * A supervisor never reaches a final state: xstate tells a parent when its child is done, and
 * the sessions under a supervisor may stop after it closed (a cancelled child still busy).
 */
export const supervisorMachine = setup({
  types: {
    context: {} as SupervisorContext,
    input: {} as SupervisorInput,
    events: {} as SupervisorEvent,
    emitted: {} as SupervisorEmitted,
  },
  actors: { merge: unprovidedMerge },
  actions: {
    /** Starts the merge of the commit that arrived, in the lowest free slot. */
    startMerge: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'COMMIT') return;
      const slot = freeSlot(context.inFlight);
      enqueue.assign({ inFlight: [...context.inFlight, { sessionId: event.sessionId, slot }] });
      enqueue.spawnChild('merge', { id: mergeActorId(slot), input: { sessionId: event.sessionId, commit: event.commit } });
    }),
    holdBack: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'COMMIT') return;
      enqueue.assign({ waiting: [...context.waiting, { sessionId: event.sessionId, commit: event.commit }] });
      enqueue.emit({ type: 'backpressure', sessionId: event.sessionId, queued: context.inFlight.length });
    }),
    /** Answers the session whose merge ended, and lets the first waiting commit into its slot. */
    answer: enqueueActions(({ context, event, enqueue }) => {
      if (!('actorId' in event)) return;
      const done = context.inFlight.find((m) => mergeActorId(m.slot) === event.actorId);
      if (!done) return;
      enqueue.emit({ type: 'answer', sessionId: done.sessionId, answer: event.output });
      enqueue.stopChild(event.actorId);
      const inFlight = context.inFlight.filter((m) => m !== done);
      const [next, ...rest] = context.waiting;
      if (!next || inFlight.length >= context.maxQueue) {
        enqueue.assign({ inFlight });
        return;
      }
      enqueue.assign({ inFlight: [...inFlight, { sessionId: next.sessionId, slot: done.slot }], waiting: rest });
      enqueue.spawnChild('merge', { id: event.actorId, input: next });
    }),
    refuseWaiting: enqueueActions(({ context, enqueue }) => {
      for (const { sessionId } of context.waiting) enqueue.emit({ type: 'refuse', sessionId });
      enqueue.assign({ waiting: [] });
    }),
  },
  guards: {
    hasRoom: ({ context }) => context.inFlight.length < context.maxQueue,
  },
}).createMachine({
  id: 'supervisor',
  context: ({ input }) => ({ ownerId: 'root', inFlight: [], waiting: [], maxQueue: input.maxQueue }),
  initial: 'open',
  // a merge ends whether the supervisor is open or closed: its session is answered either way
  on: { 'xstate.done.actor.*': { actions: 'answer' } },
  states: {
    open: {
      on: {
        COMMIT: [{ guard: 'hasRoom', actions: 'startMerge' }, { actions: 'holdBack' }],
        CLOSE: { target: 'closed', actions: 'refuseWaiting' },
      },
    },
    closed: {
      on: {
        COMMIT: { actions: emit(({ event }) => ({ type: 'refuse' as const, sessionId: event.sessionId })) },
      },
    },
  },
});

/** A root supervisor actor. */
export type Supervisor = Actor<typeof supervisorMachine>;

/** The id of the merge actor in `slot`. */
export function mergeActorId(slot: number): MergeActorId {
  return `merge:${slot}`;
}

/** The lowest slot no merge in flight holds. */
function freeSlot(inFlight: readonly MergeInFlight[]): number {
  const taken = new Set(inFlight.map((m) => m.slot));
  let slot = 0;
  while (taken.has(slot)) slot++;
  return slot;
}
