import type { Actor } from 'xstate';
import type { Conflict } from '@cohort/skillbook';
import type { BudgetAccount } from '../Budget.ts';
import type { Commit } from '../Commit.ts';
import type { Draft } from '../Draft.ts';
import type { LazyAbortController } from './LazyAbortController.ts';
import type { MergeDecision } from '../mergeCommit.ts';
import type { Session, SessionBody, SpawnOptions } from '../Session.ts';
import type { SessionOutcome } from '../SessionOutcome.ts';
import type { sessionMachine } from '../sessionMachine.ts';
import type { supervisorMachine } from '../supervisorMachine.ts';

/** The runtime's own record of a live session: its draft, actors, children and accounts. */
export interface SessionNode {
  readonly id: string;
  readonly path: readonly string[];
  readonly depth: number;
  readonly name: string | undefined;
  readonly input: unknown;
  readonly attempt: number;
  readonly body: SessionBody<never, unknown>;
  readonly options: SpawnOptions<unknown>;
  /** The parent session, or null for a root session (its parent is the runtime). */
  readonly parent: SessionNode | null;
  readonly draft: Draft;
  readonly budget: BudgetAccount;
  /** Made on first use of `s.signal` (see {@link LazyAbortController}). */
  readonly controller: LazyAbortController;
  /** Live children (one shared empty set until the first spawn). */
  children: Set<SessionNode>;
  /** Timeout and wall-clock budget timers (one shared empty list when there are none). */
  timers: readonly unknown[];
  actor: Actor<typeof sessionMachine>;
  /** Created on the first spawn: leaf sessions never pay for one. */
  supervisor: Actor<typeof supervisorMachine> | null;
  /** Stops an actor-logic body when the session ends. */
  stopBody: (() => void) | null;
  /** Set while the commit is in the parent's hands. */
  commit: Commit | null;
  /** The merge's verdict, waiting for acknowledgement (at once, or `DURABLE` for the root). */
  verdict: Verdict | null;
  /** True until the body has returned or the session has ended: only then may it write. */
  writable: boolean;
  /** The body has returned (or thrown): the session waits for its children, then commits. */
  bodyDone: boolean;
  /** Failed children whose retry is about to start: still counted as live. */
  retrying: number;
  settled: boolean;
  /** The body's view of the session. */
  handle: Session;
  /** Delivers the outcome to whoever spawned the session (a retry passes it on). */
  readonly deliver: (outcome: SessionOutcome) => void;
}

/** What a supervisor decided about a commit, delivered when it is acknowledged. */
export type Verdict =
  | { readonly ok: true; readonly revision: number; readonly merge: MergeDecision }
  | { readonly ok: false; readonly kind: 'conflict' | 'invalid_commit' | 'limit_exceeded' | 'cancelled' | 'crashed'; readonly message: string; readonly conflicts?: readonly Conflict[]; readonly error?: unknown };
