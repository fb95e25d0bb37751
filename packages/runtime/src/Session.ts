import type { AnyActorLogic } from 'xstate';
import type { BatchResult, DraftOperationResult, Skillbook, SkillbookErrorInfo } from '@cohort/skillbook';
import type { BudgetSpec, Usage } from './Budget.ts';
import type { Limits } from './Limits.ts';
import type { SessionId } from './SessionId.ts';
import type { SessionCall } from './SessionCall.ts';
import type { SessionOutcome } from './SessionOutcome.ts';
import type { SkillTools } from './tools.ts';

/** Options of a spawned session (and of `rt.run`). */
export interface SpawnOptions<I = unknown> {
  readonly input?: I;
  /** Fails the session with kind `timeout` after this many clock milliseconds. */
  readonly timeoutMs?: number;
  /** Carved out of the parent's remaining budget; see docs/runtime.md, "Budgets". */
  readonly budget?: BudgetSpec;
  /** A readable name for the session tree, events and the inspector. */
  readonly name?: string;
  /** Re-runs a failed child on a fresh draft, at most `attempts` more times, for the listed kinds. */
  readonly retry?: RetryPolicy;
  /**
   * What a tool call answered `{ error }` does to the session: `'continue'` (default) lets the
   * body go on, and the outcome counts it (`refused`); `'fail'` fails the session at once with
   * kind `tool_refused` (the call still answers its `{ error }`).
   */
  readonly onRefusedCall?: 'continue' | 'fail';
}

/** Which failures to retry, and how often. */
export interface RetryPolicy {
  readonly attempts: number;
  readonly on?: readonly string[];
}

/**
 * A session's body: an async function of its {@link Session}, or any xstate actor logic
 * (started with input `{ session }`; its output is the body's output).
 */
export type SessionBody<I = unknown, O = unknown> = ((session: Session<I>) => Promise<O> | O) | AnyActorLogic;

/**
 * What `s.applyBatch` returns: ACE's batch result, or a structured refusal — the batch's own
 * error, a session that has ended, or (`ids_unavailable`) a batch whose ADDs need more skill
 * ids than the runtime has leased at that moment (the next lease is on its way: retry after an
 * await; the `add_skill` tool waits for it on its own).
 */
export type SessionBatchResult =
  | {
      readonly ok: true;
      readonly applied: Extract<BatchResult, { ok: true }>['applied'];
      readonly skipped: Extract<BatchResult, { ok: true }>['skipped'];
    }
  | {
      readonly ok: false;
      readonly error: SkillbookErrorInfo | { readonly code: 'session_ended' | 'ids_unavailable'; readonly message: string };
    };

/** What a session's write of one op gives (its tools' write): {@link SessionBatchResult} without the lists. */
export type SessionOperationResult =
  | DraftOperationResult
  | { readonly ok: false; readonly error: { readonly code: 'session_ended' | 'ids_unavailable'; readonly message: string } };

/** What `s.charge` returns. */
export type ChargeResult =
  | { readonly ok: true; readonly remaining: { readonly tokens: number; readonly requests: number } }
  | { readonly ok: false; readonly message: string };

/**
 * A session as its body sees it: a private draft of the Skillbook (it reads its own writes;
 * nobody else sees them), tools in ACE's shapes, and structured concurrency for children.
 * Nothing here throws into the body, and nothing reaches the parent but a merged commit.
 */
export interface Session<I = unknown> {
  readonly id: SessionId;
  /** The ids from the root session down to this one. */
  readonly path: readonly SessionId[];
  readonly depth: number;
  readonly name: string | undefined;
  readonly input: I;
  /** 1 for the first run, 2… for retries. */
  readonly attempt: number;
  /** The runtime's limits: what its tools and `applyBatch` check input against (tools built for this session state them). */
  readonly limits: Limits;
  /** The session's own draft. */
  readonly book: Skillbook;
  /** Fires when the session ends (failure, cancellation, timeout, abort, or commit). */
  readonly signal: AbortSignal;
  readonly tools: SkillTools;
  /** Applies an ACE UpdateBatch to the draft, all or nothing. */
  applyBatch(raw: unknown): SessionBatchResult;
  /** Runs a child session on a draft of this one; resolves with its outcome, never rejects. */
  spawn<CI, CO>(body: SessionBody<CI, CO>, options?: SpawnOptions<CI>): Promise<SessionOutcome<CO>>;
  /** Ends the session at once: its draft is dropped, its children are cancelled. */
  abort(reason?: string): void;
  /** Spends budget; over budget, the session fails with `budget_exhausted`. */
  charge(usage: Usage): ChargeResult;
  /** Waits on the runtime's clock; rejects (already handled) when the session's signal fires. */
  sleep(ms: number): Promise<void>;
  /**
   * Puts a model or tool call the session made on `rt.events$` (a `session.call` event), for
   * run recordings and logs; nothing while nobody listens. `@cohort/ai` records its loops' calls.
   */
  record(call: SessionCall): void;
}
