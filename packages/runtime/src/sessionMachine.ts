import { assign, emit, setup } from 'xstate';
import type { SnapshotFrom } from 'xstate';
import { DEADLINE_WATCHER_ID } from './deadlineWatcher.ts';
import type { DeadlineEvent } from './deadlineWatcher.ts';
import type { Conflict, SkillId } from '@cohort/skillbook';
import type { ErrorInfo } from './ErrorInfo.ts';
import type { FailureSeed } from './FailureSeed.ts';
import { failureOf } from './sessionFailureOf.ts';
import type { FailureKind } from './SessionFailure.ts';
import type { SessionId } from './SessionId.ts';

/** What a merge gave a session: the parent's revision after it, and what it kept and dropped. */
export interface MergedInfo {
  readonly revision: number;
  /** Ops that landed (the commit's, less the dropped ones). */
  readonly ops: number;
  /** Ids of the skills the commit added, as they landed. */
  readonly added: readonly SkillId[];
  /** Ops the conflict policy dropped. */
  readonly dropped: readonly Conflict[];
}

/** Which failures to retry on a fresh draft, and how often. */
export interface RetryRule {
  readonly attempts: number;
  readonly on: readonly string[];
}

/** What a session was spawned with that its lifecycle depends on. */
export interface SessionRules {
  /** 1 for the first run, 2… for retries. */
  readonly attempt: number;
  readonly timeoutMs: number | undefined;
  /** The wall-clock budget (`budget.ms`). */
  readonly wallClockMs: number | undefined;
  readonly retry: RetryRule | null;
}

/**
 * A session machine's context: plain, serialisable data (the inspector shows it). It changes
 * only when a session fails: the verdict of a merge is the machine's output, and the body's
 * output rides on `BODY_DONE` to the runtime. Why: an `assign` copies the whole snapshot (bench
 * row 2a).
 */
export interface SessionContext {
  readonly sessionId: SessionId;
  readonly path: readonly SessionId[];
  readonly depth: number;
  readonly name: string | undefined;
  readonly rules: SessionRules;
  /** Why the session failed (kind, category, message, cause chain), once it did. */
  readonly failure: FailureSeed | null;
}

/** The input a session machine starts from. */
export interface SessionInput {
  readonly sessionId: SessionId;
  readonly path: readonly SessionId[];
  readonly name?: string | undefined;
  readonly attempt?: number | undefined;
  readonly timeoutMs?: number | undefined;
  readonly wallClockMs?: number | undefined;
  readonly retry?: { readonly attempts: number; readonly on?: readonly string[] | undefined } | undefined;
}

/** `MERGED`: the parent merged the commit (and, at the root, the store made it durable). */
export type MergedEvent = { type: 'MERGED' } & MergedInfo;
/** `REJECTED`: the parent (or the store) refused the commit, for the reason the seed gives. */
export interface RejectedEvent {
  type: 'REJECTED';
  failure: FailureSeed;
}
/** The answer to a commit: the parent's, or for a root session the store's (through the root supervisor). */
export type SessionAnswer = MergedEvent | RejectedEvent;

/** The events a session machine takes. */
export type SessionMachineEvent =
  /** The body returned `output`; `liveChildren` of its children have not settled yet. */
  | { type: 'BODY_DONE'; output: unknown; liveChildren: number }
  /** The body threw (or its promise rejected) with `error`. */
  | { type: 'BODY_FAILED'; error: unknown }
  /** The last child of a session whose body had returned has settled. */
  | { type: 'CHILDREN_SETTLED' }
  /** `timeoutMs` passed (sent by the runtime's deadline watcher, on the runtime's clock). */
  | { type: 'TIMEOUT' }
  /** The wall-clock budget ran out (sent by the runtime's deadline watcher, on the runtime's clock). */
  | { type: 'WALL_CLOCK' }
  /** The body called `s.abort(reason)`. */
  | { type: 'ABORT'; reason: string }
  /** A charge went over budget. */
  | { type: 'OVER_BUDGET'; message: string }
  /** A tool call was refused, and the session was spawned with `onRefusedCall: 'fail'`. */
  | { type: 'TOOL_REFUSED'; message: string }
  /** A copy of the session that ran elsewhere (another process) failed with `failure` (see `failSession`). */
  | { type: 'FAILED_ELSEWHERE'; failure: FailureSeed }
  /** An ancestor failed, or the runtime closed. */
  | { type: 'CANCEL'; reason: string }
  /** The runtime hit a defect of its own while handling this session. */
  | { type: 'DEFECT'; message: string; error?: ErrorInfo }
  | SessionAnswer
  /** The next attempt has started as session `next` (the inspector shows which). */
  | { type: 'RETRIED'; next: SessionId };

/** What a session machine tells the runtime (xstate `emit`; handlers see the new snapshot). */
export type SessionEmitted =
  /** Entered `committing`: merge the draft's commit into the parent's draft, or send it to the root supervisor. */
  | { type: 'commit' }
  /** Entered `retrying`: drop this attempt's draft and start the next attempt. */
  | { type: 'retry' }
  /** Reached `committed` or `failed`: deliver the outcome. */
  | { type: 'settled' };

/** The failures a retry cures unless `retry.on` says otherwise. */
export const RETRY_KINDS_DEFAULT: readonly FailureKind[] = ['crashed', 'conflict', 'timeout'];

/**
 * A session's lifecycle, the one source of truth about it: the runtime derives everything it
 * needs (may the session write? is it waiting for its children? has it settled?) from the
 * snapshot, and the inspector shows every step.
 *
 * `live` holds the states of a session not settled yet, and the failures that end any of them
 * (a timeout, a wall-clock budget, an abort, a cancellation, a runtime defect) — one
 * transition each. `running`: the runtime runs the body and reports `BODY_DONE` or
 * `BODY_FAILED`; a timeout and a wall-clock budget arrive as `TIMEOUT` and `WALL_CLOCK` from
 * the runtime's deadline watcher (on the runtime's clock), which the machine arms here (`ARM`)
 * and disarms once the commit is in the parent's hands or the session fails (`DISARM`).
 * `draining`: the body has returned and children are still live (structured concurrency: the
 * runtime counts them in its registry and sends `CHILDREN_SETTLED` once). `committing`: the
 * commit is in the parent's hands (a root session's, the store's), waiting for `MERGED` or
 * `REJECTED` (the verdict rides on the event); a timeout or an abort comes too late there, only
 * a cancellation or a defect ends it otherwise. A failure goes to `retrying` when the retry rule
 * allows (the runtime starts the next attempt and answers `RETRIED`), else to `failed`. Final
 * states keep the verdict: the merge's as the machine's output in `committed`, the `failure`
 * (kind, category, message, cause chain) in the context in `failed`.
 *
 * A leaf session takes three actor steps (start, `BODY_DONE`, `MERGED`): thousands run at once,
 * and each step counts (bench row 2a).
 */
export const sessionMachine = setup({
  types: {
    context: {} as SessionContext,
    input: {} as SessionInput,
    events: {} as SessionMachineEvent,
    emitted: {} as SessionEmitted,
    output: {} as MergedInfo | undefined,
  },
  actions: {
    keepFailure: assign({ failure: ({ context, event }) => failureOf(context, event) }),
    // plain actions, not `enqueueActions` (which builds its helpers on every call): most
    // sessions have no deadline (bench rows 2 and 3)
    armDeadlines: ({ context: { rules }, self, system }) => {
      if (!hasDeadline(rules)) return;
      const { timeoutMs, wallClockMs } = rules;
      system.get(DEADLINE_WATCHER_ID)?.send({ type: 'ARM', session: self, timeoutMs, wallClockMs } satisfies DeadlineEvent);
    },
    disarmDeadlines: ({ context: { rules }, self, system }) => {
      if (hasDeadline(rules)) system.get(DEADLINE_WATCHER_ID)?.send({ type: 'DISARM', session: self } satisfies DeadlineEvent);
    },
  },
  guards: {
    childrenLive: ({ event }) => event.type === 'BODY_DONE' && event.liveChildren > 0,
    mayRetry: ({ context }) => mayRetry(context),
  },
}).createMachine({
  id: 'session',
  context: ({ input }) => ({
    sessionId: input.sessionId,
    path: input.path,
    depth: input.path.length - 1,
    name: input.name,
    rules: {
      attempt: input.attempt ?? 1,
      timeoutMs: input.timeoutMs,
      wallClockMs: input.wallClockMs,
      retry: input.retry ? { attempts: input.retry.attempts, on: input.retry.on ?? RETRY_KINDS_DEFAULT } : null,
    },
    failure: null,
  }),
  // the output of the final state reached: the merge's verdict in `committed`, none otherwise
  output: ({ event }) => event.output as MergedInfo | undefined,
  initial: 'live',
  states: {
    /** Not settled yet: the body runs, the children drain, or the commit waits for its verdict. */
    live: {
      initial: 'running',
      on: {
        TIMEOUT: { target: 'ending', actions: 'keepFailure' },
        WALL_CLOCK: { target: 'ending', actions: 'keepFailure' },
        ABORT: { target: 'ending', actions: 'keepFailure' },
        CANCEL: { target: 'ending', actions: 'keepFailure' },
        DEFECT: { target: 'ending', actions: 'keepFailure' },
      },
      states: {
        running: {
          entry: 'armDeadlines',
          on: {
            BODY_DONE: [{ guard: 'childrenLive', target: 'draining' }, { target: 'committing' }],
            BODY_FAILED: { target: '#session.ending', actions: 'keepFailure' },
            OVER_BUDGET: { target: '#session.ending', actions: 'keepFailure' },
            TOOL_REFUSED: { target: '#session.ending', actions: 'keepFailure' },
            FAILED_ELSEWHERE: { target: '#session.ending', actions: 'keepFailure' },
          },
        },
        draining: {
          on: { CHILDREN_SETTLED: { target: 'committing' } },
        },
        committing: {
          entry: ['disarmDeadlines', emit({ type: 'commit' })],
          on: {
            MERGED: { target: '#session.committed' },
            REJECTED: { target: '#session.ending', actions: 'keepFailure' },
            // the commit has left: a deadline or an abort comes too late to undo it
            TIMEOUT: {},
            WALL_CLOCK: {},
            ABORT: {},
          },
        },
      },
    },
    /** A failure was recorded: retry it, or fail for good (a choice, never a resting state). */
    ending: {
      entry: 'disarmDeadlines',
      always: [{ guard: 'mayRetry', target: 'retrying' }, { target: 'failed' }],
    },
    retrying: {
      entry: emit({ type: 'retry' }),
      on: {
        RETRIED: { target: 'retried' },
        DEFECT: { target: 'failed', actions: 'keepFailure' },
      },
    },
    committed: { type: 'final', entry: emit({ type: 'settled' }), output: ({ event }) => mergedInfoOf(event) },
    failed: { type: 'final', entry: emit({ type: 'settled' }) },
    /** This attempt failed and handed its call on to the next (the session `RETRIED` named). */
    retried: { type: 'final' },
  },
});

/** A session machine's snapshot. */
export type SessionSnapshot = SnapshotFrom<typeof sessionMachine>;

/** Where a session is in its lifecycle, by the name of its state (`running` for `live.running`). */
export type SessionState = Exclude<SessionSnapshot['value'], object> | Extract<SessionSnapshot['value'], object>['live'];

/** The state a snapshot is in, by its own name: the `live` states are named without their parent. */
export function sessionStateOf(snapshot: SessionSnapshot): SessionState {
  const value = snapshot.value;
  return typeof value === 'string' ? value : value.live;
}

/** The verdict `MERGED` carries, as the `committed` state's output. */
function mergedInfoOf(event: SessionMachineEvent): MergedInfo | undefined {
  return event.type === 'MERGED' ? { revision: event.revision, ops: event.ops, added: event.added, dropped: event.dropped } : undefined;
}

/** Whether the session has a timeout or a wall-clock budget for the deadline watcher to keep. */
function hasDeadline(rules: SessionRules): boolean {
  return rules.timeoutMs !== undefined || rules.wallClockMs !== undefined;
}

/**
 * Whether a failed attempt runs again: attempts left, and a kind the rule lists. A
 * cancellation never does — it means the parent (or the runtime) is going away.
 */
function mayRetry(context: SessionContext): boolean {
  const { retry, attempt } = context.rules;
  const failure = context.failure;
  if (!retry || !failure || attempt > retry.attempts) return false;
  return failure.kind !== 'cancelled' && retry.on.includes(failure.kind);
}
