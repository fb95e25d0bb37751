import { assign, setup } from 'xstate';

/** A supervisor's context: who it merges into, and the commits in its hands, by session id. */
export interface SupervisorContext {
  readonly ownerId: string;
  /** Whether a merge waits for the store (the root's supervisor); a session's answers at once. */
  readonly durable: boolean;
  /** Commits taken for merging and not yet acknowledged, in merge order. */
  readonly inFlight: readonly string[];
  /** Commits waiting for room in a full queue (back-pressure), in arrival order. */
  readonly waiting: readonly string[];
  readonly maxQueue: number;
}

/** The input a supervisor machine starts from. */
export interface SupervisorInput {
  readonly ownerId: string;
  readonly durable: boolean;
  readonly maxQueue: number;
}

/** The events a supervisor takes. */
export type SupervisorEvent =
  | { type: 'COMMIT'; sessionId: string }
  | { type: 'DURABLE'; sessionId: string }
  | { type: 'CLOSE' };

/**
 * A merge queue. Commits are merged one at a time, in arrival order (a merge action runs a
 * merge to completion before the next event is taken). A session's supervisor merges into the
 * session's draft and answers in the same step (`mergeNow`). The runtime's root supervisor
 * hands merges to the store: each stays in flight until the store made it durable
 * (`DURABLE`), and at most `maxQueue` are in flight — a commit that finds the queue full
 * waits for room (back-pressure, not refusal).
 * The runtime provides `merge`, `mergeNow`, `acknowledge`, `refuse` and `backpressure`.
 */
export const supervisorMachine = setup({
  types: {
    context: {} as SupervisorContext,
    input: {} as SupervisorInput,
    events: {} as SupervisorEvent,
  },
  actions: {
    /** Merges the commit of `sessionId` and tells the session the verdict (nothing to wait for). */
    mergeNow: (_, _params: { sessionId: string }) => {},
    /** Merges the commit of `sessionId` and arranges for `DURABLE` once it is acknowledged. */
    merge: (_, _params: { sessionId: string }) => {},
    /** Tells the session its commit is durable (or refused by the store). */
    acknowledge: (_, _params: { sessionId: string }) => {},
    /** Refuses a commit that can no longer be merged (the supervisor closed). */
    refuse: (_, _params: { sessionId: string }) => {},
    /** Reports that a commit waits for room. */
    backpressure: (_, _params: { sessionId: string; queued: number }) => {},
  },
  guards: {
    answersAtOnce: ({ context }) => !context.durable,
    hasRoom: ({ context }) => context.inFlight.length < context.maxQueue,
    nextWaiting: ({ context }) => context.waiting.length > 0 && context.inFlight.length < context.maxQueue,
  },
}).createMachine({
  id: 'supervisor',
  context: ({ input }) => ({ ownerId: input.ownerId, durable: input.durable, inFlight: [], waiting: [], maxQueue: input.maxQueue }),
  initial: 'open',
  states: {
    open: {
      on: {
        COMMIT: [
          { guard: 'answersAtOnce', actions: { type: 'mergeNow', params: ({ event }) => ({ sessionId: event.sessionId }) } },
          {
            guard: 'hasRoom',
            actions: [
              assign({ inFlight: ({ context, event }) => [...context.inFlight, event.sessionId] }),
              { type: 'merge', params: ({ event }) => ({ sessionId: event.sessionId }) },
            ],
          },
          {
            actions: [
              assign({ waiting: ({ context, event }) => [...context.waiting, event.sessionId] }),
              {
                type: 'backpressure',
                params: ({ context, event }) => ({ sessionId: event.sessionId, queued: context.inFlight.length }),
              },
            ],
          },
        ],
        DURABLE: {
          actions: [
            assign({ inFlight: ({ context, event }) => context.inFlight.filter((id) => id !== event.sessionId) }),
            { type: 'acknowledge', params: ({ event }) => ({ sessionId: event.sessionId }) },
          ],
        },
        CLOSE: {
          target: 'closed',
          actions: [
            ({ context, self }) => {
              for (const id of context.waiting) self.send({ type: 'COMMIT', sessionId: id });
            },
            assign({ waiting: [] }),
          ],
        },
      },
      always: {
        guard: 'nextWaiting',
        actions: [
          assign({
            inFlight: ({ context }) => [...context.inFlight, context.waiting[0] ?? ''],
            waiting: ({ context }) => context.waiting.slice(1),
          }),
          { type: 'merge', params: ({ context }) => ({ sessionId: context.inFlight[context.inFlight.length - 1] ?? '' }) },
        ],
      },
    },
    closed: {
      on: {
        COMMIT: { actions: { type: 'refuse', params: ({ event }) => ({ sessionId: event.sessionId }) } },
        DURABLE: {
          actions: [
            assign({ inFlight: ({ context, event }) => context.inFlight.filter((id) => id !== event.sessionId) }),
            { type: 'acknowledge', params: ({ event }) => ({ sessionId: event.sessionId }) },
          ],
        },
      },
    },
  },
});
