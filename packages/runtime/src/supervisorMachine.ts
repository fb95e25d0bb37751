import { assign, emit, enqueueActions, setup } from 'xstate';
import type { Commit } from './Commit.ts';
import type { SessionAnswer } from './sessionMachine.ts';
import type { SessionId } from './SessionId.ts';

/** The root supervisor's context: the commits in its hands. */
export interface SupervisorContext {
  /** What it merges into: `root` (the runtime's book, through the store). */
  readonly ownerId: 'root';
  /** Sessions whose commits were taken for merging and not yet acknowledged, in merge order. */
  readonly inFlight: readonly SessionId[];
  /** Commits waiting for room in a full queue (back-pressure), in arrival order. */
  readonly waiting: readonly { readonly sessionId: SessionId; readonly commit: Commit }[];
  readonly maxQueue: number;
}

/** The input a supervisor machine starts from. */
export interface SupervisorInput {
  /** How many merges may wait for the store at once; more commits wait for room. */
  readonly maxQueue: number;
}

/** The events a supervisor takes. */
export type SupervisorEvent =
  /** The commit of child session `sessionId`, to merge. */
  | { type: 'COMMIT'; sessionId: SessionId; commit: Commit }
  /** The store answered a merge in flight (durable, or refused): `answer` is the session's verdict. */
  | { type: 'DURABLE'; sessionId: SessionId; answer: SessionAnswer }
  /** The owner settled, or the runtime closes: refuse what waits, still answer what is in flight. */
  | { type: 'CLOSE' };

/** What a supervisor asks the runtime to do (xstate `emit`). */
export type SupervisorEmitted =
  /** Hand the commit of `sessionId` to the store now. */
  | { type: 'merge'; sessionId: SessionId; commit: Commit }
  /** Tell the session the verdict the store gave its merge. */
  | { type: 'answer'; sessionId: SessionId; answer: SessionAnswer }
  /** Refuse the commit of a session: the supervisor has closed. */
  | { type: 'refuse'; sessionId: SessionId }
  /** The commit of `sessionId` waits for room; `queued` merges are in flight. */
  | { type: 'backpressure'; sessionId: SessionId; queued: number };

/**
 * The runtime's root supervisor: the merge queue in front of the store. Root sessions' commits
 * are merged one at a time, in arrival order: the runtime runs each `merge` to completion (it
 * decides the commit and hands it to the store) before the supervisor takes its next event.
 * Each merge stays in flight until the store made it durable (`DURABLE`, carrying the verdict),
 * and at most `maxQueue` are in flight — a commit that finds the queue full waits for room
 * (back-pressure, not refusal). A closed supervisor refuses new commits and still answers the
 * merges in flight. (A session's children's commits need no such queue: the runtime merges each
 * into the session's draft as it arrives, and answers at once.)
 *
 * A supervisor never reaches a final state: xstate tells a parent when its child is done, and
 * the sessions under a supervisor may stop after their owner (a cancelled child still busy),
 * so a supervisor that stopped with its owner would be sent events it can no longer take.
 */
export const supervisorMachine = setup({
  types: {
    context: {} as SupervisorContext,
    input: {} as SupervisorInput,
    events: {} as SupervisorEvent,
    emitted: {} as SupervisorEmitted,
  },
  actions: {
    /** Answers a durable merge, and lets the first waiting commit into the room it leaves. */
    answerDurable: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'DURABLE') return;
      enqueue.emit({ type: 'answer', sessionId: event.sessionId, answer: event.answer });
      const inFlight = context.inFlight.filter((id) => id !== event.sessionId);
      const [next, ...rest] = context.waiting;
      if (!next || inFlight.length >= context.maxQueue) {
        enqueue.assign({ inFlight });
        return;
      }
      enqueue.assign({ inFlight: [...inFlight, next.sessionId], waiting: rest });
      enqueue.emit({ type: 'merge', sessionId: next.sessionId, commit: next.commit });
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
  states: {
    open: {
      on: {
        COMMIT: [
          {
            guard: 'hasRoom',
            actions: [
              assign({ inFlight: ({ context, event }) => [...context.inFlight, event.sessionId] }),
              emit(({ event }) => ({ type: 'merge' as const, sessionId: event.sessionId, commit: event.commit })),
            ],
          },
          {
            actions: [
              assign({ waiting: ({ context, event }) => [...context.waiting, { sessionId: event.sessionId, commit: event.commit }] }),
              emit(({ context, event }) => ({ type: 'backpressure' as const, sessionId: event.sessionId, queued: context.inFlight.length })),
            ],
          },
        ],
        DURABLE: { actions: 'answerDurable' },
        CLOSE: { target: 'closed', actions: 'refuseWaiting' },
      },
    },
    closed: {
      on: {
        COMMIT: { actions: emit(({ event }) => ({ type: 'refuse' as const, sessionId: event.sessionId })) },
        DURABLE: { actions: 'answerDurable' },
      },
    },
  },
});
