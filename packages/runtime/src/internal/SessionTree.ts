import { createActor, toPromise } from 'xstate';
import type { Actor, AnyActorLogic } from 'xstate';
import type { AppliedOp, Conflict, Section, SkillId } from '@cohort/skillbook';
import type { Commit } from '../Commit.ts';
import { createIdAllocator } from '@cohort/skillbook';
import { BudgetAccount } from '../Budget.ts';
import type { Clock } from '../Clock.ts';
import type { ConflictPolicy } from '../ConflictPolicy.ts';
import { Draft } from '../Draft.ts';
import type { Limits } from '../Limits.ts';
import type { RuntimeEvent } from '../RuntimeEvent.ts';
import type { RuntimeMutation } from '../RuntimeMutation.ts';
import type { SessionBatchResult, SessionBody, SpawnOptions } from '../Session.ts';
import { SpawnOptionsSchema } from '../SpawnOptionsSchema.ts';
import type { FailureKind, SessionFailure } from '../SessionFailure.ts';
import { toErrorInfo } from '../SessionFailure.ts';
import type { SessionOutcome } from '../SessionOutcome.ts';
import { sessionMachine } from '../sessionMachine.ts';
import type { FailureSeed, SessionContext, SessionMachineEvent } from '../sessionMachine.ts';
import { supervisorMachine } from '../supervisorMachine.ts';
import type { SupervisorContext } from '../supervisorMachine.ts';
import type { RootLedger } from './RootLedger.ts';
import { LazyAbortController } from './LazyAbortController.ts';
import { SessionHandle } from './SessionHandle.ts';
import type { SessionHost } from './SessionHandle.ts';
import type { SessionNode, Verdict } from './SessionNode.ts';

/** What a session tree is built from. */
export interface TreeDeps {
  readonly clock: Clock;
  readonly limits: Limits;
  readonly policy: ConflictPolicy;
  readonly budget: BudgetAccount;
  readonly emit: (event: RuntimeEvent) => void;
  readonly ledger: RootLedger;
  readonly allocator: ReturnType<typeof createIdAllocator>;
  readonly mutation: RuntimeMutation | null;
}

/** Resolves the promise `spawn` returned: a second call does nothing, so a session delivers at most once. */
type Deliver = (outcome: SessionOutcome) => void;

const RETRY_KINDS_DEFAULT: readonly FailureKind[] = ['crashed', 'conflict', 'timeout'];

/**
 * The live sessions of one runtime: spawning (with limits and budgets), the actors' provided
 * actions (commit, merge, acknowledge, settle), cancellation of descendants and retries. The
 * tree keeps its own registry of sessions instead of xstate `children` (which xstate copies on
 * every spawn): each session actor joins the actor system through `createActor(…, { parent })`.
 */
export class SessionTree implements SessionHost {
  readonly clock: Clock;
  private readonly nodes = new Map<string, SessionNode>();
  private nextId = 1;
  private allocator: ReturnType<typeof createIdAllocator>;
  private rootSupervisor: Actor<typeof supervisorMachine> | null = null;
  /**
   * The ADD ops whose ids this runtime allocated (every other ADD's id was chosen by its
   * session, and the store must never renumber it). Keyed by the op, which merges pass up to
   * the root as the same object, and weak: a mark goes with its op instead of piling up for
   * the runtime's lifetime as a set of ids would.
   */
  private readonly allocatedAdds = new WeakSet<AppliedOp>();
  /** The ids allocated during the write in progress. */
  private readonly allocating: string[] = [];
  /** What every write applies with: made once, not per write (a write is a hot path). */
  private readonly writeOptions: { readonly clock: Clock; readonly allocateId: (section: Section) => SkillId };
  private readonly sessionLogic;
  /** The supervisor machine with this tree's actions: the root's and every session's. */
  readonly supervisorLogic;

  constructor(private readonly deps: TreeDeps) {
    this.clock = deps.clock;
    this.allocator = deps.allocator;
    this.writeOptions = {
      clock: this.clock,
      allocateId: (section) => {
        const id = this.allocator.allocate(section);
        this.allocating.push(id);
        return id;
      },
    };
    this.sessionLogic = sessionMachine.provide({
      actions: {
        submitCommit: ({ context }) => this.guard(() => this.submitCommit(context), () => this.rescue(context.sessionId)),
        settle: ({ context }) => this.guard(() => this.settle(context), (err) => this.rescueSettle(context.sessionId, err)),
      },
    });
    this.supervisorLogic = supervisorMachine.provide({
      actions: {
        merge: ({ context, self }, params) =>
          this.guardedMerge(context, params.sessionId, () => self.send({ type: 'DURABLE', sessionId: params.sessionId })),
        mergeNow: ({ context }, params) =>
          this.guardedMerge(context, params.sessionId, () => this.guardedAcknowledge(context, params.sessionId)),
        acknowledge: ({ context }, params) => this.guardedAcknowledge(context, params.sessionId),
        refuse: (_, params) => this.refuseCommit(params.sessionId),
        backpressure: (_, params) => this.emitFor(params.sessionId, (n) => ({
          type: 'merge.backpressure', sessionId: n.id, path: [...n.path], at: this.clock.now(), queued: params.queued,
        })),
      },
    });
  }

  setRootSupervisor(actor: Actor<typeof supervisorMachine>): void {
    this.rootSupervisor = actor;
  }

  /** Keeps id allocation at or above the store's counter (after a load, or other writers' ids). */
  resetAllocator(nextId: number): void {
    if (nextId > this.allocator.next) this.allocator = createIdAllocator(nextId);
  }

  get liveCount(): number {
    return this.nodes.size;
  }

  /** Spawns a session under `parent` (null: a root session); resolves with its outcome. */
  spawn(parent: SessionNode | null, body: SessionBody<never, unknown>, options: SpawnOptions<unknown>): Promise<SessionOutcome> {
    return new Promise((resolve) => this.start(parent, body, options, 1, resolve, false));
  }

  /** A refused `rt.run` (the runtime is closed, or its store could not be loaded). */
  refuse(options: SpawnOptions<unknown>, kind: FailureKind, message: string, error?: unknown): SessionOutcome {
    const id = this.newId();
    return this.refused(id, [id], kind, message, 1, options, error);
  }

  /** Cancels every live root session (and so the whole tree). */
  cancelAll(reason: string): void {
    for (const node of [...this.nodes.values()]) {
      if (node.parent === null) this.fail(node, 'cancelled', reason);
    }
  }

  /** Reports a defect of the runtime itself as an event instead of crashing the host. */
  reportDefect(thrown: unknown): void {
    this.deps.emit({ type: 'runtime.defect', at: this.clock.now(), error: toErrorInfo(thrown) });
  }

  /** Runs a provided action; a throw is a defect of the runtime: reported, then rescued. */
  private guard(action: () => void, rescue: (err: unknown) => void): void {
    try {
      action();
    } catch (err) {
      this.reportDefect(err);
      rescue(err);
    }
  }

  /** Merges a commit; `answer` runs once its verdict is kept on the node (a defect is a crash verdict). */
  private guardedMerge(context: SupervisorContext, sessionId: string, answer: () => void): void {
    const done = this.verdictKeeper(sessionId, answer);
    this.guard(() => this.merge(context, sessionId, done), (err) =>
      done({ ok: false, kind: 'crashed', message: 'the merge failed: a runtime defect', error: err }));
  }

  /** Tells a session its merge's verdict; a defect fails the session instead of leaving it waiting. */
  private guardedAcknowledge(context: SupervisorContext, sessionId: string): void {
    this.guard(() => this.acknowledge(context, sessionId), () => this.rescue(sessionId));
  }

  /** Keeps a merge's verdict on its session, then answers. (Returned: see `toolsOf` in tools.ts on closures named where they are made.) */
  private verdictKeeper(sessionId: string, answer: () => void): (v: Verdict) => void {
    return (v) => {
      const node = this.nodes.get(sessionId);
      if (node) node.verdict = v;
      answer();
    };
  }

  /** Fails a session stuck by a defect, so that it still settles (never a hang). */
  private rescue(sessionId: string): void {
    const node = this.nodes.get(sessionId);
    if (node && !node.settled) node.actor.send({ type: 'REJECTED', failure: { kind: 'crashed', message: 'runtime defect while committing' } });
  }

  /** Delivers a crash to a session whose settling hit a defect (its outcome is delivered once). */
  private rescueSettle(sessionId: string, err: unknown): void {
    const node = this.nodes.get(sessionId);
    this.nodes.delete(sessionId);
    if (!node) return;
    node.parent?.children.delete(node);
    node.deliver(this.failedOutcome(node, { kind: 'crashed', message: 'runtime defect while settling', error: toErrorInfo(err) }, 0));
    this.childGone(node.parent);
  }

  // ---- SessionHost ----------------------------------------------------------------------

  endedReason(node: SessionNode): string | null {
    if (node.writable) return null;
    return node.settled
      ? `session ${node.id} has ended; the call was not applied`
      : `session ${node.id} has finished its body; the call was not applied`;
  }

  write(node: SessionNode, raw: unknown): SessionBatchResult {
    const ended = this.endedReason(node);
    if (ended) return { ok: false, error: { code: 'session_ended', message: ended } };
    this.allocating.length = 0;
    const result = node.draft.write(raw, this.writeOptions);
    if (!result.ok) return { ok: false, error: result.error };
    for (const op of result.applied) {
      if (op.type !== 'ADD') continue;
      this.allocator.observe(op.skill_id);
      if (this.allocating.includes(op.skill_id)) this.allocatedAdds.add(op);
    }
    return { ok: true, applied: result.applied, skipped: result.skipped };
  }

  // ---- spawning -----------------------------------------------------------------------

  private start(
    parent: SessionNode | null,
    body: SessionBody<never, unknown>,
    options: SpawnOptions<unknown>,
    attempt: number,
    deliver: Deliver,
    isRetry: boolean,
  ): void {
    const id = this.newId();
    // `concat` sizes the list to its length (a spread into a literal reserves 17 slots or more)
    const path = parent ? parent.path.concat(id) : [id];
    if (isRetry && parent) parent.retrying -= 1;
    const account = this.admit(parent, options, isRetry) ?? this.openAccount(parent, options);
    if (!(account instanceof BudgetAccount)) {
      deliver(this.refused(id, path, account.kind, account.message, attempt, options));
      if (isRetry) this.childGone(parent);
      return;
    }
    const node = this.createNode(id, path, parent, body, options, attempt, deliver, account);
    this.nodes.set(id, node);
    if (parent) (parent.children === NO_CHILDREN ? (parent.children = new Set()) : parent.children).add(node);
    this.armTimers(node);
    this.deps.emit({
      type: 'session.spawned', sessionId: id, path: [...path], at: this.clock.now(),
      parentId: parent?.id ?? null, depth: node.depth, attempt,
      ...(options.name !== undefined ? { name: options.name } : {}),
    });
    node.actor.start();
    this.runBody(node);
  }

  private createNode(
    id: string,
    path: string[],
    parent: SessionNode | null,
    body: SessionBody<never, unknown>,
    options: SpawnOptions<unknown>,
    attempt: number,
    deliver: Deliver,
    budget: BudgetAccount,
  ): SessionNode {
    const start = parent ? parent.draft.book : this.deps.ledger.book;
    const node = {
      id, path, depth: path.length - 1, name: options.name, input: options.input, attempt, body, options, parent,
      draft: parent && this.deps.mutation === 'shared-draft' ? parent.draft : new Draft(start, { sessionId: id, path }),
      budget, controller: new LazyAbortController(), children: NO_CHILDREN, timers: NO_TIMERS,
      supervisor: null, stopBody: null, commit: null, verdict: null, writable: true, bodyDone: false, retrying: 0, settled: false,
      deliver, handle: null, actor: null,
    } as unknown as SessionNode;
    node.handle = new SessionHandle(node, this);
    node.actor = createActor(this.sessionLogic, {
      id,
      parent: this.supervisorFor(parent),
      input: { sessionId: id, path, depth: node.depth, name: options.name },
    });
    return node;
  }

  private admit(parent: SessionNode | null, options: SpawnOptions<unknown>, isRetry: boolean): { kind: FailureKind; message: string } | null {
    const parsed = SpawnOptionsSchema.safeParse(options);
    if (!parsed.success) return { kind: 'limit_exceeded', message: `invalid spawn options: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}` };
    const { limits } = this.deps;
    if (parent && (parent.settled || (!parent.writable && !isRetry))) {
      return { kind: 'cancelled', message: `parent session ${parent.id} can no longer spawn: ${this.endedReason(parent)}` };
    }
    const depth = parent ? parent.depth + 1 : 0;
    if (depth > limits.maxDepth) return { kind: 'limit_exceeded', message: `maxDepth ${limits.maxDepth} reached: a session at depth ${depth} may not be spawned` };
    if (parent && parent.children.size >= limits.maxChildren) {
      return { kind: 'limit_exceeded', message: `maxChildren ${limits.maxChildren} reached: session ${parent.id} has that many live children` };
    }
    if (this.nodes.size >= limits.maxSessions) return { kind: 'limit_exceeded', message: `maxSessions ${limits.maxSessions} reached: that many sessions are live` };
    return null;
  }

  /** The child's budget account, carved from its parent's (or the runtime's); a refusal when it does not fit. */
  private openAccount(parent: SessionNode | null, options: SpawnOptions<unknown>): BudgetAccount | { kind: FailureKind; message: string } {
    const account = (parent?.budget ?? this.deps.budget).open(options.budget);
    if (account instanceof BudgetAccount) return account;
    return {
      kind: 'budget_exhausted',
      message: `budget exhausted: the child asked for ${account.asked} ${account.meter}, its parent has ${account.remaining} left`,
    };
  }

  private supervisorFor(parent: SessionNode | null): Actor<typeof supervisorMachine> {
    if (!parent) {
      if (!this.rootSupervisor) throw new Error('the root supervisor is not set');
      return this.rootSupervisor;
    }
    if (!parent.supervisor) {
      parent.supervisor = createActor(this.supervisorLogic, {
        id: `${parent.id}.supervisor`,
        parent: parent.actor,
        input: { ownerId: parent.id, durable: false, maxQueue: this.deps.limits.maxMergeQueue },
      });
      parent.supervisor.start();
    }
    return parent.supervisor;
  }

  private armTimers(node: SessionNode): void {
    const { timeoutMs, budget } = node.options;
    if (timeoutMs === undefined && budget?.ms === undefined) return;
    const timers: unknown[] = [];
    if (timeoutMs !== undefined) {
      timers.push(this.clock.setTimeout(() => this.fail(node, 'timeout', `timed out after ${timeoutMs} ms`), timeoutMs));
    }
    if (budget?.ms !== undefined) {
      const ms = budget.ms;
      timers.push(this.clock.setTimeout(() => this.fail(node, 'budget_exhausted', `wall-clock budget of ${ms} ms exhausted`), ms));
    }
    node.timers = timers;
  }

  /**
   * Runs the body outside any actor step and reports how it ended: a function body is called
   * directly (no actor of its own: a session is one actor), actor logic runs as an actor.
   */
  private runBody(node: SessionNode): void {
    let running: Promise<unknown>;
    try {
      running = Promise.resolve(typeof node.body === 'function' ? node.body(node.handle as never) : this.runActorBody(node));
    } catch (thrown) {
      running = Promise.reject(thrown);
    }
    running.then(
      (output) => this.bodyEnded(node, { type: 'BODY_DONE', output, liveChildren: liveChildren(node) }),
      (error: unknown) => this.bodyEnded(node, { type: 'BODY_FAILED', error }),
    );
  }

  private runActorBody(node: SessionNode): Promise<unknown> {
    const actor = createActor(node.body as AnyActorLogic, { input: { session: node.handle } });
    node.stopBody = () => actor.stop();
    actor.start();
    return toPromise(actor);
  }

  private bodyEnded(node: SessionNode, event: SessionMachineEvent): void {
    node.writable = false;
    node.bodyDone = true;
    // in a promise callback: a defect here must not become an unhandled rejection
    if (!node.settled) this.guard(() => node.actor.send(event), () => this.fail(node, 'crashed', 'runtime defect while ending the body'));
  }

  /** A child of `parent` settled for good: the parent commits once its body returned and none is left. */
  private childGone(parent: SessionNode | null): void {
    if (parent && parent.bodyDone && !parent.settled && liveChildren(parent) === 0) parent.actor.send({ type: 'CHILDREN_SETTLED' });
  }

  // ---- committing and merging -----------------------------------------------------------

  private submitCommit(context: SessionContext): void {
    const node = this.nodes.get(context.sessionId);
    if (!node) return;
    node.commit = node.draft.toCommit(context.output);
    this.deps.emit({
      type: 'session.committed', sessionId: node.id, path: [...node.path], at: this.clock.now(),
      ops: node.draft.opCount, baseRevision: node.commit.baseRevision,
    });
    this.supervisorFor(node.parent).send({ type: 'COMMIT', sessionId: node.id });
  }

  private merge(context: SupervisorContext, sessionId: string, done: (v: Verdict) => void): void {
    const node = this.nodes.get(sessionId);
    const commit = node?.commit;
    if (!node || node.settled || !commit) {
      done({ ok: false, kind: 'cancelled', message: `session ${sessionId} is no longer waiting for its merge` });
      return;
    }
    const max = this.deps.limits.maxOpsPerCommit;
    if (node.draft.opCount > max) {
      done({ ok: false, kind: 'limit_exceeded', message: `commit of ${sessionId} has ${node.draft.opCount} ops; maxOpsPerCommit is ${max}` });
      return;
    }
    if (context.ownerId === 'root') {
      this.deps.ledger.merge(commit, this.deps.policy, (op) => this.allocatedAdds.has(op), done);
      return;
    }
    const owner = this.nodes.get(context.ownerId);
    if (!owner || owner.settled) {
      done({ ok: false, kind: 'cancelled', message: `parent session ${context.ownerId} has ended` });
      return;
    }
    if (this.deps.mutation === 'interleaved-merge' && commit.entries.length > 0) {
      this.mergeInterleaved(owner, commit, done);
      return;
    }
    const result = owner.draft.merge(commit, this.deps.policy);
    if (result.ok) done({ ok: true, revision: owner.draft.revision, merge: result });
    else if (result.kind === 'conflict') done({ ok: false, kind: 'conflict', message: result.message, conflicts: result.conflicts });
    else done({ ok: false, kind: 'invalid_commit', message: result.message });
  }

  /** The `interleaved-merge` mutation: half of the commit now, the rest after other work. */
  private mergeInterleaved(owner: SessionNode, commit: Commit, done: (v: Verdict) => void): void {
    const ops = commit.entries.flatMap((e) => e.ops);
    const half = Math.ceil(ops.length / 2);
    const part = (slice: AppliedOp[]): Commit => ({ ...commit, entries: [{ ...commit.entries[0]!, ops: slice }] });
    const first = owner.draft.merge(part(ops.slice(0, half)), 'last-writer-wins');
    this.clock.setTimeout(() => {
      if (!owner.settled && half < ops.length) owner.draft.merge(part(ops.slice(half)), 'last-writer-wins');
      done(first.ok ? { ok: true, revision: owner.draft.book.revision, merge: { ...first, ops } } : { ok: false, kind: 'invalid_commit', message: first.message });
    }, 0);
  }

  private acknowledge(context: SupervisorContext, sessionId: string): void {
    const node = this.nodes.get(sessionId);
    const verdict = node?.verdict;
    // another writer's ids may have moved the store's counter on: never allocate below it
    if (context.ownerId === 'root') this.resetAllocator(this.deps.ledger.book.nextId);
    if (!node || node.settled || !verdict) return;
    const base = { sessionId: node.id, path: [...node.path], at: this.clock.now(), into: context.ownerId };
    if (verdict.ok) {
      this.deps.emit({ type: 'session.merged', ...base, revision: verdict.revision, ops: verdict.merge.ops.length, dropped: [...verdict.merge.dropped] });
      node.actor.send({ type: 'MERGED', revision: verdict.revision, dropped: verdict.merge.dropped });
      return;
    }
    if (verdict.kind === 'conflict') this.deps.emit({ type: 'session.rejected', ...base, conflicts: [...(verdict.conflicts ?? [])] });
    node.actor.send({ type: 'REJECTED', failure: seed(verdict.kind, verdict.message, verdict.error, verdict.conflicts) });
  }

  private refuseCommit(sessionId: string): void {
    const node = this.nodes.get(sessionId);
    if (node && !node.settled) node.actor.send({ type: 'REJECTED', failure: { kind: 'cancelled', message: 'the runtime closed before the merge' } });
  }

  // ---- settling -----------------------------------------------------------------------

  /** Ends a live session with a failure of `kind` (abort, budget, timeout, cancellation). */
  fail(node: SessionNode, kind: FailureKind, message: string): void {
    if (!node.settled) node.actor.send({ type: 'FAIL', failure: { kind, message } });
  }

  private settle(context: SessionContext): void {
    const node = this.nodes.get(context.sessionId);
    if (!node || node.settled) return;
    node.settled = true;
    node.writable = false;
    for (const t of node.timers) this.clock.clearTimeout(t);
    const failure = context.failure;
    const cancelled = failure ? this.cancelChildren(node, `parent session ${node.id} ended (${failure.kind})`) : 0;
    if (failure && this.deps.mutation === 'keep-failed-writes' && node.parent && !node.parent.settled) {
      node.parent.draft.merge(node.draft.toCommit(undefined), 'last-writer-wins');
    }
    node.controller.abort(failure ? new Error(failure.message) : 'committed');
    node.stopBody?.();
    node.budget.close();
    node.supervisor?.send({ type: 'CLOSE' });
    this.nodes.delete(node.id);
    node.parent?.children.delete(node);
    const outcome = failure ? this.failedOutcome(node, failure, cancelled) : this.committedOutcome(node, context);
    if (outcome.status === 'failed') this.emitFailure(outcome.failure);
    if (outcome.status === 'failed' && this.shouldRetry(node, outcome.failure)) {
      // the parent keeps counting this child until the retry settles; the retry starts outside
      // this action (creating an actor inside one trips xstate's purity checks)
      if (node.parent) node.parent.retrying += 1;
      queueMicrotask(() => this.start(node.parent, node.body, node.options, node.attempt + 1, node.deliver, true));
      return;
    }
    node.deliver(outcome);
    this.childGone(node.parent);
  }

  private cancelChildren(node: SessionNode, reason: string): number {
    let count = 0;
    for (const child of [...node.children]) {
      count += 1 + subtreeSize(child);
      this.fail(child, 'cancelled', reason);
    }
    return count;
  }

  private shouldRetry(node: SessionNode, failure: SessionFailure): boolean {
    const retry = node.options.retry;
    if (!retry || node.attempt > retry.attempts) return false;
    if (node.parent && node.parent.settled) return false;
    const kinds = retry.on ?? RETRY_KINDS_DEFAULT;
    return kinds.includes(failure.kind);
  }

  private committedOutcome(node: SessionNode, context: SessionContext): SessionOutcome {
    const merged = node.verdict?.ok ? node.verdict.merge : null;
    const added = merged ? merged.ops.filter((op) => op.type === 'ADD').map((op) => op.skill_id) : [];
    return {
      status: 'committed', sessionId: node.id, path: node.path, output: context.output,
      revision: context.merged?.revision ?? 0, added, dropped: context.merged?.dropped ?? [], attempt: node.attempt,
    };
  }

  private failedOutcome(node: SessionNode, failure: FailureSeed, cancelledDescendants: number): SessionOutcome {
    return {
      status: 'failed', sessionId: node.id, path: node.path,
      failure: {
        kind: failure.kind, sessionId: node.id, path: [...node.path], message: failure.message,
        ...(failure.error ? { error: failure.error } : {}),
        ...(failure.conflicts ? { conflicts: [...failure.conflicts] } : {}),
        discarded: { ops: node.draft.opCount, descendants: node.draft.descendantCount + cancelledDescendants },
        attempt: node.attempt, at: this.clock.now(),
      },
    };
  }

  private refused(
    id: string, path: string[], kind: FailureKind, message: string, attempt: number, options: SpawnOptions<unknown>, error?: unknown,
  ): SessionOutcome {
    const failure: SessionFailure = {
      kind, sessionId: id, path, message, ...(error !== undefined ? { error: toErrorInfo(error) } : {}),
      discarded: { ops: 0, descendants: 0 }, attempt, at: this.clock.now(),
    };
    this.deps.emit({
      type: 'session.spawned', sessionId: id, path: [...path], at: failure.at, parentId: path.length > 1 ? (path[path.length - 2] ?? null) : null,
      depth: path.length - 1, attempt, ...(options.name !== undefined ? { name: options.name } : {}),
    });
    this.emitFailure(failure);
    return { status: 'failed', sessionId: id, path, failure };
  }

  private emitFailure(failure: SessionFailure): void {
    const base = { sessionId: failure.sessionId, path: failure.path, at: failure.at };
    if (failure.kind === 'cancelled') this.deps.emit({ type: 'session.cancelled', ...base, reason: failure.message });
    this.deps.emit({ type: 'session.failed', ...base, failure });
  }

  private emitFor(sessionId: string, make: (node: SessionNode) => RuntimeEvent): void {
    const node = this.nodes.get(sessionId);
    if (node) this.deps.emit(make(node));
  }

  private newId(): string {
    return `s${this.nextId++}`;
  }
}

/** Children not settled for good: live ones, and failed ones whose retry has not started yet. */
function liveChildren(node: SessionNode): number {
  return node.children.size + node.retrying;
}

function subtreeSize(node: SessionNode): number {
  let n = 0;
  for (const child of node.children) n += 1 + subtreeSize(child);
  return n;
}

function seed(kind: FailureKind, message: string, error: unknown, conflicts: readonly Conflict[] | undefined): FailureSeed {
  return {
    kind, message,
    ...(error !== undefined ? { error: toErrorInfo(error) } : {}),
    ...(conflicts ? { conflicts } : {}),
  };
}

/** A session without children shares this set; its first child gets it a set of its own. */
const NO_CHILDREN: Set<SessionNode> = new Set();
/** A session without timers shares this list. */
const NO_TIMERS: readonly unknown[] = Object.freeze([]);
