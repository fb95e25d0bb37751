import { emit, enqueueActions, fromCallback, setup } from 'xstate';
import type { Actor, CallbackActorLogic } from 'xstate';
import type { Commit } from './Commit.ts';
import { defect } from './FailureSeed.ts';
import type { SessionAnswer } from './sessionMachine.ts';
import type { SessionId } from './SessionId.ts';

/** A root session's commit, as the supervisor holds it and hands it to a merge. */
export interface RootCommit {
  readonly sessionId: SessionId;
  readonly commit: Commit;
}

/** The root supervisor's context: the commits in its hands. */
export interface SupervisorContext {
  /** What it merges into: `root` (the runtime's book, through the store). */
  readonly ownerId: 'root';
  /** The sessions whose merges are on their way to the store and not yet answered, in the order they started. */
  readonly inFlight: readonly SessionId[];
  /** Commits waiting for room in a full queue (back-pressure), in arrival order. */
  readonly waiting: readonly RootCommit[];
  readonly maxQueue: number;
}

/** The input a supervisor machine starts from. */
export interface SupervisorInput {
  /** How many merges may wait for the store at once; more commits wait for room. */
  readonly maxQueue: number;
}

/** What the supervisor asks its merge actor: merge this commit, and answer with `MERGED`. */
export type MergeRequest = { type: 'MERGE' } & RootCommit;

/** The events a supervisor takes. */
export type SupervisorEvent =
  /** The commit of root session `sessionId`, to merge. */
  | ({ type: 'COMMIT' } & RootCommit)
  /** The runtime closes: refuse what waits and what comes, still answer what is in flight. */
  | { type: 'CLOSE' }
  /** The merge actor is done with the commit of `sessionId`: made durable, or refused; `answer` is the session's. */
  | { type: 'MERGED'; sessionId: SessionId; answer: SessionAnswer };

/** What a supervisor asks the runtime to do (xstate `emit`). */
export type SupervisorEmitted =
  /** Tell the session the verdict on its commit. */
  | { type: 'answer'; sessionId: SessionId; answer: SessionAnswer }
  /** Refuse the commit of a session: the supervisor has closed. */
  | { type: 'refuse'; sessionId: SessionId }
  /** The commit of `sessionId` waits for room; `queued` merges are in flight. */
  | { type: 'backpressure'; sessionId: SessionId; queued: number };

/** The supervisor's merge actor: takes `MERGE` requests, answers each with `MERGED`. */
export type MergeLogic = CallbackActorLogic<MergeRequest>;

/**
 * The merge actor over `merge`, which decides a root session's commit against the runtime's
 * book at once, hands it to the store, and resolves with the session's answer once the store
 * made it durable (or refused it); it never rejects. One actor for the supervisor's life, not
 * one per commit (bench row 4: an actor per commit cost a fifth of the file store's merges/s).
 */
export function mergeActor(merge: (commit: RootCommit) => Promise<SessionAnswer>): MergeLogic {
  return fromCallback<MergeRequest>(({ receive, sendBack }) => {
    receive(({ sessionId, commit }) => {
      void merge({ sessionId, commit }).then((answer) => sendBack({ type: 'MERGED', sessionId, answer }));
    });
  });
}

/** Without the runtime's merge, every commit is refused as a defect. */
const unprovidedMerge = mergeActor(async () => ({ type: 'REJECTED', failure: defect('the root supervisor runs without a merge actor') }));

/**
 * The runtime's root supervisor: the merge queue in front of the store. It invokes one `merge`
 * actor (the runtime provides it: `supervisorMachine.provide({ actors: { merge: mergeActor(…) } })`)
 * and hands it each root session's commit as the commit arrives; the actor decides it at once
 * (so merges are decided one at a time, in arrival order), hands it to the store, and answers
 * `MERGED` once the store made it durable. At most `maxQueue` merges are in flight — a commit
 * that finds the queue full waits for room (back-pressure, not refusal) and goes to the merge
 * actor when the next merge is answered. A closed supervisor refuses what waits and what comes,
 * and still answers the merges in flight. (A session's children's commits need no such queue:
 * the runtime merges each into the session's draft as it arrives, and answers at once.)
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
    /** Hands the commit that arrived to the merge actor. */
    startMerge: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'COMMIT') return;
      enqueue.assign({ inFlight: [...context.inFlight, event.sessionId] });
      enqueue.sendTo('merge', { type: 'MERGE', sessionId: event.sessionId, commit: event.commit } satisfies MergeRequest);
    }),
    holdBack: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'COMMIT') return;
      enqueue.assign({ waiting: [...context.waiting, { sessionId: event.sessionId, commit: event.commit }] });
      enqueue.emit({ type: 'backpressure', sessionId: event.sessionId, queued: context.inFlight.length });
    }),
    /** Answers the session whose merge ended, and hands the first waiting commit to the merge actor. */
    answer: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'MERGED' || !context.inFlight.includes(event.sessionId)) return;
      enqueue.emit({ type: 'answer', sessionId: event.sessionId, answer: event.answer });
      const inFlight = context.inFlight.filter((id) => id !== event.sessionId);
      const [next, ...rest] = context.waiting;
      if (!next || inFlight.length >= context.maxQueue) {
        enqueue.assign({ inFlight });
        return;
      }
      enqueue.assign({ inFlight: [...inFlight, next.sessionId], waiting: rest });
      enqueue.sendTo('merge', { type: 'MERGE', ...next } satisfies MergeRequest);
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
  invoke: { id: 'merge', src: 'merge' },
  initial: 'open',
  // a merge ends whether the supervisor is open or closed: its session is answered either way
  on: { MERGED: { actions: 'answer' } },
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
