import { createActor } from 'xstate';
import type { Actor, AnyActorRef } from 'xstate';
import type { OperationLimits } from '@cohort/skillbook';
import type { BudgetAccount } from '../Budget.ts';
import type { Clock } from '../Clock.ts';
import type { Limits } from '../Limits.ts';
import type { Draft } from '../Draft.ts';
import type { Session, SessionBody, SpawnOptions } from '../Session.ts';
import type { SessionCall } from '../SessionCall.ts';
import type { SessionId } from '../SessionId.ts';
import type { SessionOutcome } from '../SessionOutcome.ts';
import { DEADLINE_WATCHER_ID } from '../deadlineWatcher.ts';
import type { DeadlineEvent } from '../deadlineWatcher.ts';
import { NO_REFUSED_CALLS, withRefusedCall } from '../RefusedCalls.ts';
import type { RefusedCalls } from '../RefusedCalls.ts';
import { sessionMachine, sessionStateOf } from '../sessionMachine.ts';
import type { SessionEmitted, SessionMachineEvent, SessionState } from '../sessionMachine.ts';
import type { SkillToolName } from '../tools.ts';
import { dropChildDoneEvents } from './dropChildDoneEvents.ts';
import { LazyAbortController } from './LazyAbortController.ts';
import { SessionHandle } from './SessionHandle.ts';
import type { SkillIds } from './SkillIds.ts';
import type { SessionTrace, Tracing } from './tracing/Tracing.ts';

/** What a session's node needs from the tree that runs it. */
export interface SessionHost {
  readonly clock: Clock;
  readonly limits: Limits;
  /** What a session's writes are checked against: the runtime's {@link Limits} for one operation. */
  readonly operationLimits: OperationLimits;
  /** The runtime's skill ids, from its id leases: what a session's ADDs are given. */
  readonly ids: SkillIds;
  spawn(parent: SessionNode, body: SessionBody<never, unknown>, options: SpawnOptions<unknown>): Promise<SessionOutcome>;
  /** Where the session's spans go. */
  readonly tracing: Tracing;
  /** What the session's machine emitted (it has taken its new state). */
  sessionEmitted(node: SessionNode, emitted: SessionEmitted): void;
  /** A model or tool call the session's body recorded (`s.record`). */
  sessionCalled(node: SessionNode, call: SessionCall): void;
}

/** Resolves the promise `spawn` returned: a second call does nothing, so a session delivers at most once. */
export type Deliver = (outcome: SessionOutcome) => void;

/** What a node is made from. */
export interface NodeSpec {
  readonly id: SessionId;
  readonly path: readonly SessionId[];
  readonly parent: SessionNode | null;
  readonly body: SessionBody<never, unknown>;
  readonly options: SpawnOptions<unknown>;
  readonly attempt: number;
  readonly deliver: Deliver;
  readonly draft: Draft;
  readonly budget: BudgetAccount;
  /** The runtime's root supervisor: the actor a root session's actor is a child of. */
  readonly root: AnyActorRef;
}

/**
 * The runtime's record of a live session: what its machine cannot hold (its draft, accounts,
 * children, body) next to the machine itself. Everything about its lifecycle is read from the
 * machine's snapshot; the node keeps no flags of its own.
 */
export class SessionNode {
  readonly id: SessionId;
  readonly path: readonly SessionId[];
  readonly depth: number;
  readonly attempt: number;
  readonly body: SessionBody<never, unknown>;
  readonly options: SpawnOptions<unknown>;
  /** The parent session, or null for a root session (its parent is the runtime). */
  readonly parent: SessionNode | null;
  readonly draft: Draft;
  readonly budget: BudgetAccount;
  readonly deliver: Deliver;
  /** Made on first use of `s.signal` (see {@link LazyAbortController}). */
  readonly controller = new LazyAbortController();
  /** Children not settled for good; null until the first spawn (most sessions never spawn; row 2c). */
  private kids: Set<SessionNode> | null = null;
  readonly actor: Actor<typeof sessionMachine>;
  /** The body's view of the session. */
  readonly handle: Session;
  /** Stops an actor-logic body when the session ends. */
  stopBody: (() => void) | null = null;
  /** What the body returned, once it did: its commit carries it, and its outcome. */
  output: unknown = undefined;
  /** The tool calls answered `{ error }` while the body ran. */
  refused: RefusedCalls = NO_REFUSED_CALLS;
  /** The session's span, when it is traced (set once, as it starts). */
  trace: SessionTrace | null = null;

  constructor(spec: NodeSpec, host: SessionHost) {
    this.id = spec.id;
    this.path = spec.path;
    this.depth = spec.path.length - 1;
    this.attempt = spec.attempt;
    this.body = spec.body;
    this.options = spec.options;
    this.parent = spec.parent;
    this.draft = spec.draft;
    this.budget = spec.budget;
    this.deliver = spec.deliver;
    this.handle = new SessionHandle(this, host);
    this.actor = createActor(sessionMachine, {
      // what an inspector shows: the session's name when it has one, and always its id
      id: spec.options.name === undefined ? spec.id : `${spec.options.name} (${spec.id})`,
      // a child's actor is its parent's child in the actor system (the inspector shows the tree);
      // a root session's, the root supervisor's
      parent: spec.parent?.actor ?? spec.root,
      input: {
        sessionId: spec.id,
        path: spec.path,
        name: spec.options.name,
        attempt: spec.attempt,
        timeoutMs: spec.options.timeoutMs,
        wallClockMs: spec.options.budget?.ms,
        retry: spec.options.retry,
      },
    });
    this.actor.on('*', (emitted) => host.sessionEmitted(this, emitted));
  }

  /** Live children: spawned and not settled for good (a failed one stays until its retry has started). */
  get childCount(): number {
    return this.kids?.size ?? 0;
  }

  /** The live children, as a list of their own (settling one changes none). */
  children(): SessionNode[] {
    return this.kids ? [...this.kids] : [];
  }

  addChild(child: SessionNode): void {
    if (!this.kids) {
      this.kids = new Set();
      // its children's actors report to this one when they stop: the runtime settles them itself
      dropChildDoneEvents(this.actor);
    }
    this.kids.add(child);
  }

  removeChild(child: SessionNode): void {
    this.kids?.delete(child);
  }

  get name(): string | undefined {
    return this.options.name;
  }

  get input(): unknown {
    return this.options.input;
  }

  /** Sends `event` to the session's machine while it is live (a settled one takes no more events). */
  tell(event: SessionMachineEvent): void {
    if (this.actor.getSnapshot().status === 'active') this.actor.send(event);
  }

  /** A tool call answered `{ error }` while the body runs: counted, and the session's end if it was spawned to fail on one. */
  noteRefusedCall(tool: SkillToolName, error: string): void {
    if (this.state !== 'running') return;
    this.refused = withRefusedCall(this.refused, { tool, error });
    if (this.options.onRefusedCall === 'fail') this.tell({ type: 'TOOL_REFUSED', message: `${tool} refused: ${error}` });
  }

  /** Has the deadline watcher send a deadline the clock has passed (see `deadlineWatcher`). */
  private checkDeadlines(): void {
    if (this.state === 'running')
      this.actor.system.get(DEADLINE_WATCHER_ID)?.send({ type: 'CHECK', session: this.actor } satisfies DeadlineEvent);
  }

  /** The machine's state, by its own name (`running`, not `live.running`). */
  get state(): SessionState {
    return sessionStateOf(this.actor.getSnapshot());
  }

  /**
   * Null while the session may write (its body runs); otherwise why not. A session with a
   * deadline has it checked on the clock first: a body that never lets a timer fire ends at its
   * next call past it.
   */
  endedReason(): string | null {
    if (this.options.timeoutMs !== undefined || this.options.budget?.ms !== undefined) this.checkDeadlines();
    const state = this.state;
    if (state === 'running') return null;
    return state === 'draining' || state === 'committing'
      ? `session ${this.id} has finished its body; the call was not applied`
      : `session ${this.id} has ended; the call was not applied`;
  }
}
