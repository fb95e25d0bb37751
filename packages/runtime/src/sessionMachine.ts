import { assign, fromPromise, setup } from 'xstate';
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
  readonly liveChildren: number;
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
  | { type: 'CHILD_STARTED' }
  | { type: 'CHILD_SETTLED' }
  | { type: 'FAIL'; failure: FailureSeed }
  | { type: 'MERGED'; revision: number; dropped: readonly Conflict[] }
  | { type: 'REJECTED'; failure: FailureSeed };

/**
 * A session's lifecycle. `running` invokes the body; when it returns, `draining` waits for
 * every child to settle (structured concurrency); `committing` has sent the commit to the
 * parent's supervisor and waits for `MERGED` or `REJECTED`. A `FAIL` (crash, abort, timeout,
 * budget, limit, cancellation) ends it in `failed` from any live state; once the commit is in
 * the parent's hands only a cancellation can. The runtime provides `body`, `submitCommit`
 * and `settle`.
 */
export const sessionMachine = setup({
  types: {
    context: {} as SessionContext,
    input: {} as SessionInput,
    events: {} as SessionMachineEvent,
  },
  actors: {
    body: fromPromise<unknown, { sessionId: string }>(() => Promise.reject(new Error('no body provided'))),
  },
  actions: {
    submitCommit: () => {},
    settle: () => {},
  },
  guards: {
    childrenSettled: ({ context }) => context.liveChildren === 0,
    isCancellation: ({ event }) => event.type === 'FAIL' && event.failure.kind === 'cancelled',
  },
}).createMachine({
  id: 'session',
  context: ({ input }) => ({
    sessionId: input.sessionId,
    path: input.path,
    depth: input.depth,
    name: input.name,
    liveChildren: 0,
    output: undefined,
    failure: null,
    merged: null,
  }),
  initial: 'running',
  on: {
    CHILD_STARTED: { actions: assign({ liveChildren: ({ context }) => context.liveChildren + 1 }) },
    CHILD_SETTLED: { actions: assign({ liveChildren: ({ context }) => context.liveChildren - 1 }) },
  },
  states: {
    running: {
      invoke: {
        src: 'body',
        input: ({ context }) => ({ sessionId: context.sessionId }),
        onDone: { target: 'draining', actions: assign({ output: ({ event }) => event.output }) },
        onError: {
          target: 'failed',
          actions: assign({
            failure: ({ event }) => ({ kind: 'crashed' as const, message: crashMessage(event.error), error: toErrorInfo(event.error) }),
          }),
        },
      },
      on: { FAIL: { target: 'failed', actions: assign({ failure: ({ event }) => event.failure }) } },
    },
    draining: {
      always: { guard: 'childrenSettled', target: 'committing' },
      on: { FAIL: { target: 'failed', actions: assign({ failure: ({ event }) => event.failure }) } },
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
