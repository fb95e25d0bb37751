import { assign, setup } from 'xstate';
import type { ErrorInfo, FailureKind } from './SessionFailure.ts';
import { toErrorInfo } from './SessionFailure.ts';
import type { Conflict } from '@cohort/skillbook';

/** What the machine knows of why a session failed; the runtime adds the accounting. */
export interface FailureSeed {
  readonly kind: FailureKind;
  readonly message: string;
  readonly error?: ErrorInfo;
  readonly conflicts?: readonly Conflict[];
}

/** A session machine's context: plain, serialisable data (the inspector shows it). */
export interface SessionContext {
  readonly sessionId: string;
  readonly path: readonly string[];
  readonly depth: number;
  readonly name: string | undefined;
  readonly output: unknown;
  readonly failure: FailureSeed | null;
  readonly merged: { readonly revision: number; readonly dropped: readonly Conflict[] } | null;
}

/** The input a session machine starts from. */
export interface SessionInput {
  readonly sessionId: string;
  readonly path: readonly string[];
  readonly depth: number;
  readonly name?: string | undefined;
}

/** The events a session machine takes. */
export type SessionMachineEvent =
  /** The body returned `output`; `liveChildren` of its children have not settled yet. */
  | { type: 'BODY_DONE'; output: unknown; liveChildren: number }
  /** The body threw (or its promise rejected) with `error`. */
  | { type: 'BODY_FAILED'; error: unknown }
  /** The last child of a session whose body had returned has settled. */
  | { type: 'CHILDREN_SETTLED' }
  | { type: 'FAIL'; failure: FailureSeed }
  | { type: 'MERGED'; revision: number; dropped: readonly Conflict[] }
  | { type: 'REJECTED'; failure: FailureSeed };

/**
 * A session's lifecycle. In `running` the runtime runs the body (a function is called
 * directly; actor logic runs as an actor of its own) and reports `BODY_DONE` or `BODY_FAILED`;
 * `draining` waits until every child has settled (structured concurrency: the runtime counts
 * live children in its registry and sends `CHILDREN_SETTLED` once); `committing` has sent the
 * commit to the parent's supervisor and waits for `MERGED` or `REJECTED`. A `FAIL` (crash,
 * abort, timeout, budget, limit, cancellation) ends it in `failed` from any live state; once
 * the commit is in the parent's hands only a cancellation can. The runtime provides
 * `submitCommit` and `settle`.
 *
 * A session is deliberately few actor steps (start, `BODY_DONE`, `MERGED`): thousands run at
 * once, and every step of an actor costs tens of microseconds.
 */
export const sessionMachine = setup({
  types: {
    context: {} as SessionContext,
    input: {} as SessionInput,
    events: {} as SessionMachineEvent,
  },
  actions: {
    submitCommit: () => {},
    settle: () => {},
  },
  guards: {
    childrenLive: ({ event }) => event.type === 'BODY_DONE' && event.liveChildren > 0,
    isCancellation: ({ event }) => event.type === 'FAIL' && event.failure.kind === 'cancelled',
  },
}).createMachine({
  id: 'session',
  context: ({ input }) => ({
    sessionId: input.sessionId,
    path: input.path,
    depth: input.depth,
    name: input.name,
    output: undefined,
    failure: null,
    merged: null,
  }),
  initial: 'running',
  states: {
    running: {
      on: {
        BODY_DONE: [
          { guard: 'childrenLive', target: 'draining', actions: assign({ output: ({ event }) => event.output }) },
          { target: 'committing', actions: assign({ output: ({ event }) => event.output }) },
        ],
        BODY_FAILED: {
          target: 'failed',
          actions: assign({
            failure: ({ event }) => ({ kind: 'crashed' as const, message: crashMessage(event.error), error: toErrorInfo(event.error) }),
          }),
        },
        FAIL: { target: 'failed', actions: assign({ failure: ({ event }) => event.failure }) },
      },
    },
    draining: {
      on: {
        CHILDREN_SETTLED: { target: 'committing' },
        FAIL: { target: 'failed', actions: assign({ failure: ({ event }) => event.failure }) },
      },
    },
    committing: {
      entry: 'submitCommit',
      on: {
        MERGED: {
          target: 'committed',
          actions: assign({ merged: ({ event }) => ({ revision: event.revision, dropped: event.dropped }) }),
        },
        REJECTED: { target: 'failed', actions: assign({ failure: ({ event }) => event.failure }) },
        FAIL: { guard: 'isCancellation', target: 'failed', actions: assign({ failure: ({ event }) => event.failure }) },
      },
    },
    committed: { type: 'final', entry: 'settle' },
    failed: { type: 'final', entry: 'settle' },
  },
});

function crashMessage(thrown: unknown): string {
  try {
    if (thrown instanceof Error) return thrown.message;
    return typeof thrown === 'string' ? thrown : `non-Error value thrown: ${JSON.stringify(thrown) ?? String(thrown)}`;
  } catch {
    return 'a value that cannot be described was thrown';
  }
}
