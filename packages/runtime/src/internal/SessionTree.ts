import { createActor, waitFor } from 'xstate';
import type { OperationLimits } from '@cohort/skillbook';
import type { InspectionEvent, Observer } from 'xstate';
import { BudgetAccount } from '../Budget.ts';
import type { Clock } from '../Clock.ts';
import type { ConflictPolicy } from '../ConflictPolicy.ts';
import type { FailureSeed } from '../FailureSeed.ts';
import { defect } from '../FailureSeed.ts';
import { toErrorInfo } from '../ErrorInfo.ts';
import type { Limits } from '../Limits.ts';
import { operationLimits } from '../Limits.ts';
import type { SessionBody, SpawnOptions } from '../Session.ts';
import type { SessionCall } from '../SessionCall.ts';
import type { SessionId } from '../SessionId.ts';
import type { SessionOutcome } from '../SessionOutcome.ts';
import type { SessionEmitted } from '../sessionMachine.ts';
import { DEADLINE_WATCHER_ID, deadlineWatcher } from '../deadlineWatcher.ts';
import { mergeActor, supervisorMachine } from '../supervisorMachine.ts';
import type { Supervisor } from '../supervisorMachine.ts';
import { admitSession, openAccount } from './admitSession.ts';
import { dropChildDoneEvents } from './dropChildDoneEvents.ts';
import { Merger, closedAnswer } from './Merger.ts';
import { committedEvent, committedOutcome, failedOutcome, failureEvents, sessionFailure, spawnedEvent } from './outcomes.ts';
import type { RootLedger } from './RootLedger.ts';
import type { BodyEnded } from './runBody.ts';
import { runBody } from './runBody.ts';
import { refusedSpawn } from './refusedSpawn.ts';
import type { Seams } from './Seams.ts';
import { SessionNode } from './SessionNode.ts';
import type { Deliver, SessionHost } from './SessionNode.ts';
import type { EventSink } from './EventSink.ts';
import { SessionRegistry } from './SessionRegistry.ts';
import { CancelCascade } from './CancelCascade.ts';
import type { SkillIds } from './SkillIds.ts';
import type { Tracing } from './tracing/Tracing.ts';

/** What a session tree is built from. */
export interface TreeDeps {
  readonly clock: Clock;
  readonly limits: Limits;
  readonly policy: ConflictPolicy;
  readonly budget: BudgetAccount;
  readonly events: EventSink;
  readonly ledger: RootLedger;
  /** The runtime's id allocator (id leases from the store). */
  readonly skillIds: SkillIds;
  /** Names the runtime in its session ids. */
  readonly runtimeId: string;
  readonly seams: Seams;
  readonly inspect: Observer<InspectionEvent> | ((event: InspectionEvent) => void) | undefined;
  /** Where spans go (`NO_TRACING` when tracing is off). */
  readonly tracing: Tracing;
}

/** The xstate id (and system id) of the runtime's root supervisor. */
export const ROOT_SUPERVISOR_ID = 'cohort.root';

/**
 * The live sessions of one runtime and their wiring: spawning (admission, then a node and its
 * actor), running bodies, handing commits to supervisors, and settling — the outcome
 * delivered, descendants cancelled, or the next attempt started. Each session's machine
 * decides its lifecycle; the tree does what the machine emits.
 */
export class SessionTree implements SessionHost {
  readonly clock: Clock;
  /** The runtime's root supervisor: it merges root sessions' commits into the store. */
  readonly root: Supervisor;
  private readonly registry: SessionRegistry;
  private readonly merger: Merger;
  private readonly cancels = new CancelCascade();

  /** The runtime's limits (what tools and batches are checked against). */
  readonly limits: Limits;
  readonly operationLimits: OperationLimits;
  readonly ids: SkillIds;
  readonly tracing: Tracing;

  constructor(private readonly deps: TreeDeps) {
    this.clock = deps.clock;
    this.tracing = deps.tracing;
    this.limits = deps.limits;
    this.operationLimits = operationLimits(deps.limits);
    this.ids = deps.skillIds;
    this.registry = new SessionRegistry(deps.runtimeId);
    const { registry } = this;
    const reportDefect = (thrown: unknown) => this.reportDefect(thrown);
    this.merger = new Merger({ ...deps, registry, reportDefect });
    const { merger } = this;
    const merge = mergeActor((commit) => merger.mergeIntoRoot(commit));
    this.root = createActor(supervisorMachine.provide({ actors: { merge } }), {
      id: ROOT_SUPERVISOR_ID,
      systemId: ROOT_SUPERVISOR_ID,
      clock: deps.clock,
      ...(deps.inspect ? { inspect: deps.inspect } : {}),
      input: { maxQueue: deps.limits.maxMergeQueue },
    });
    this.root.on('*', (emitted) => this.guard(() => merger.handle(emitted)));
    dropChildDoneEvents(this.root);
    // xstate re-throws an unobserved root error in a timer: observe it, report it, never crash the host
    this.root.subscribe({ error: reportDefect });
    this.root.start();
    createActor(deadlineWatcher, {
      id: DEADLINE_WATCHER_ID,
      systemId: DEADLINE_WATCHER_ID,
      parent: this.root,
      input: { clock: deps.clock },
    }).start();
  }

  get liveCount(): number {
    return this.registry.size;
  }

  /** Spawns a session under `parent` (null: a root session); resolves with its outcome. */
  spawn(parent: SessionNode | null, body: SessionBody<never, unknown>, options: SpawnOptions<unknown>): Promise<SessionOutcome> {
    return new Promise((resolve) => this.start(parent, body, options, 1, resolve, false));
  }

  /** A refused `rt.run` (the runtime is closed, or its store could not be loaded). */
  refuse(options: SpawnOptions<unknown>, seed: FailureSeed): SessionOutcome {
    const id = this.registry.newId();
    return refusedSpawn(this.deps, { parent: null, id, path: [id], attempt: 1, name: options.name }, seed);
  }

  /**
   * Closes the root supervisor: what waits for room is refused, and this resolves once every
   * merge in flight was answered (at once when the supervisor has failed: nothing answers then).
   */
  async closeRoot(): Promise<void> {
    this.root.send({ type: 'CLOSE' });
    await waitFor(this.root, (s) => s.context.inFlight.length === 0).catch(() => undefined);
  }

  /** Cancels every live root session (and so the whole tree). */
  cancelAll(reason: string): void {
    this.cancels.cancel(this.registry.roots(), reason);
  }

  /** Reports a defect of the runtime itself as an event instead of crashing the host. */
  reportDefect(thrown: unknown): void {
    const { events } = this.deps;
    if (events.listening) events.emit({ type: 'runtime.defect', at: this.clock.now(), error: toErrorInfo(thrown) });
  }

  // ---- SessionHost ----------------------------------------------------------------------

  sessionCalled(node: SessionNode, call: SessionCall): void {
    const { events } = this.deps;
    if (events.listening) events.emit({ type: 'session.call', sessionId: node.id, path: [...node.path], at: this.clock.now(), call });
  }

  sessionEmitted(node: SessionNode, emitted: SessionEmitted): void {
    try {
      if (emitted.type === 'commit') this.submitCommit(node);
      else this.settle(node);
    } catch (thrown) {
      this.reportDefect(thrown);
      if (emitted.type === 'commit') node.tell({ type: 'DEFECT', message: 'runtime defect while committing' });
      else this.rescueSettle(node, thrown);
    }
  }

  // ---- spawning -------------------------------------------------------------------------

  /** Admits and starts a session (a refused one is delivered its failure at once); its id. */
  private start(
    parent: SessionNode | null,
    body: SessionBody<never, unknown>,
    options: SpawnOptions<unknown>,
    attempt: number,
    deliver: Deliver,
    isRetry: boolean,
  ): SessionId {
    const id = this.registry.newId();
    // `concat`, not a spread into a literal: the list is sized to its length (bench row 2c)
    const path = parent ? parent.path.concat(id) : [id];
    const { limits, budget } = this.deps;
    const account = admitSession({ parent, options, isRetry, limits, live: this.registry.size }) ?? openAccount(parent, options, budget);
    if (!(account instanceof BudgetAccount)) {
      deliver(refusedSpawn(this.deps, { parent, id, path, attempt, name: options.name }, account));
      return id;
    }
    const start = parent ? parent.draft.book : this.deps.ledger.book;
    const draft = this.deps.seams.draftFor(parent, start, { sessionId: id, path, name: options.name });
    const node = new SessionNode({ id, path, parent, body, options, attempt, deliver, draft, budget: account, root: this.root }, this);
    this.registry.add(node);
    if (this.deps.events.listening) this.deps.events.emit(spawnedEvent(id, path, this.clock.now(), attempt, options.name));
    node.trace = this.tracing.sessionStarted(node);
    node.actor.start();
    runBody(node, (n, event) => this.bodyEnded(n, event), this.tracing);
    return id;
  }

  /** In a promise callback: a defect here must not become an unhandled rejection. */
  private bodyEnded(node: SessionNode, event: BodyEnded): void {
    if (event.type === 'BODY_DONE') node.output = event.output;
    this.guard(
      () => node.tell(event),
      () => node.tell({ type: 'DEFECT', message: 'runtime defect while ending the body' }),
    );
  }

  private submitCommit(node: SessionNode): void {
    const commit = node.draft.toCommit(node.output);
    if (this.deps.events.listening) this.deps.events.emit(committedEvent(node, this.clock.now(), commit.baseRevision));
    if (node.parent) this.merger.mergeIntoSession(node.parent, node.id, commit);
    else if (this.root.getSnapshot().status === 'active') this.root.send({ type: 'COMMIT', sessionId: node.id, commit });
    else node.tell(closedAnswer());
  }

  // ---- settling -------------------------------------------------------------------------

  /** The session reached `committed`, `failed` or `retrying`: deliver, or start the next attempt. */
  private settle(node: SessionNode): void {
    if (!this.registry.has(node)) return;
    const { context, output: merged } = node.actor.getSnapshot();
    if (merged && !context.failure) {
      this.finish(node, 'committed');
      if (node.trace) this.tracing.sessionSettled(node.trace, { merged, charged: node.budget.spent() });
      node.deliver(committedOutcome(node, merged));
      this.childGone(node.parent);
      return;
    }
    const seed = context.failure ?? defect(`session ${node.id} settled without a verdict`);
    const cancelled = this.cancelChildren(node, `parent session ${node.id} ended (${seed.kind})`);
    this.deps.seams.dropFailed(node);
    this.finish(node, new Error(seed.message));
    const failure = sessionFailure(node, seed, cancelled, this.clock.now());
    const { events } = this.deps;
    if (events.listening) for (const event of failureEvents(failure, node.budget.spent(), node.draft.allOps())) events.emit(event);
    if (node.trace) this.tracing.sessionSettled(node.trace, { failure, charged: node.budget.spent() });
    if (node.state === 'retrying') {
      const next = this.start(node.parent, node.body, node.options, node.attempt + 1, node.deliver, true);
      node.tell({ type: 'RETRIED', next });
      // a refused retry leaves the parent one child fewer; an admitted one took this one's place
      this.childGone(node.parent);
      return;
    }
    node.deliver(failedOutcome(failure));
    this.childGone(node.parent);
  }

  /** Ends what the session holds: its signal, its body, its account, its place in the registry. */
  private finish(node: SessionNode, reason: unknown): void {
    node.controller.abort(reason);
    node.stopBody?.();
    node.budget.close();
    this.registry.remove(node);
  }

  /** Cancels the live children (each cancels its own in turn); how many live sessions that reaches. */
  private cancelChildren(node: SessionNode, reason: string): number {
    return this.cancels.cancelChildren(node, reason);
  }

  /**
   * A child of `parent` settled for good: the parent commits once its body returned and no
   * child is left. A failed child whose retry started was replaced in the registry by its next
   * attempt, so the parent keeps waiting.
   */
  private childGone(parent: SessionNode | null): void {
    if (parent && parent.state === 'draining' && parent.childCount === 0) parent.tell({ type: 'CHILDREN_SETTLED' });
  }

  // ---- defects --------------------------------------------------------------------------

  /** Runs `action`; a throw is a defect of the runtime: reported, then rescued. */
  private guard(action: () => void, rescue?: (thrown: unknown) => void): void {
    try {
      action();
    } catch (thrown) {
      this.reportDefect(thrown);
      rescue?.(thrown);
    }
  }

  /** Delivers a defect to a session whose settling hit one (its outcome is delivered once), so that it never hangs. */
  private rescueSettle(node: SessionNode, thrown: unknown): void {
    this.registry.remove(node);
    const failure = sessionFailure(node, defect('runtime defect while settling', thrown), 0, this.clock.now());
    if (node.trace) this.tracing.sessionSettled(node.trace, { failure, charged: node.budget.spent() });
    node.deliver(failedOutcome(failure));
    this.childGone(node.parent);
    node.tell({ type: 'DEFECT', message: 'runtime defect while settling' });
  }
}
