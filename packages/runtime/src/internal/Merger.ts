import type { Clock } from '../Clock.ts';
import type { Commit } from '../Commit.ts';
import type { Draft } from '../Draft.ts';
import type { ConflictPolicy } from '../ConflictPolicy.ts';
import { defect, failureSeed } from '../FailureSeed.ts';
import type { FailureSeed } from '../FailureSeed.ts';
import type { Limits } from '../Limits.ts';
import type { EventSink } from './EventSink.ts';
import type { SessionId } from '../SessionId.ts';
import type { SessionAnswer } from '../sessionMachine.ts';
import type { RootCommit, SupervisorEmitted } from '../supervisorMachine.ts';
import { verdictEvent } from './outcomes.ts';
import type { RootLedger } from './RootLedger.ts';
import type { Seams } from './Seams.ts';
import type { SessionNode } from './SessionNode.ts';
import type { SessionRegistry } from './SessionRegistry.ts';
import type { Verdict } from './Verdict.ts';
import type { Tracing } from './tracing/Tracing.ts';
import { answerOf, refused } from './Verdict.ts';

/** What the merger works with. */
export interface MergerDeps {
  readonly registry: SessionRegistry;
  readonly ledger: RootLedger;
  readonly seams: Seams;
  readonly policy: ConflictPolicy;
  readonly limits: Limits;
  readonly clock: Clock;
  readonly events: EventSink;
  /** Reports a defect of the runtime (a `runtime.defect` event). */
  readonly reportDefect: (thrown: unknown) => void;
  /** Where merge spans go. */
  readonly tracing: Tracing;
}

/** The answer to a root session whose commit came after the runtime closed. */
export function closedAnswer(): SessionAnswer {
  return { type: 'REJECTED', failure: failureSeed('cancelled', 'the runtime closed before the merge') };
}

/**
 * Merges commits into their owners and tells each committing session the verdict (`MERGED` or
 * `REJECTED`). A session's children's commits are merged into its draft as they arrive
 * (`mergeIntoSession`): a merge runs to completion before anything else happens, so the merges
 * into one session never interleave and need no queue. A root session's commit is merged by
 * the root supervisor's `merge` actor (`mergeIntoRoot`): the supervisor holds the queue in front
 * of the store (durability, back-pressure) and hands the verdict back here to be told. A defect
 * here never leaves a session waiting: the merge is refused, or the session is told of the defect.
 */
export class Merger {
  constructor(private readonly deps: MergerDeps) {}

  /** Does what the runtime's root supervisor asks: tell a session its verdict, refuse it, or say it waits. */
  handle(emitted: SupervisorEmitted): void {
    switch (emitted.type) {
      case 'answer':
        this.answer(emitted.sessionId, emitted.answer, 'root');
        return;
      case 'refuse':
        this.answer(emitted.sessionId, closedAnswer(), 'root');
        return;
      case 'backpressure':
        this.backpressure(emitted.sessionId, emitted.queued);
    }
  }

  /** Merges the commit of child `sessionId` into `owner`'s draft and answers the child at once. */
  mergeIntoSession(owner: SessionNode, sessionId: SessionId, commit: Commit): void {
    this.guarded(owner, sessionId, commit, (verdict) => this.answer(sessionId, answerOf(verdict), owner.id));
  }

  /**
   * The root supervisor's merge: decides a root session's commit at once and hands it to the
   * store (`RootLedger.merge`); resolves with the session's answer once the store made it
   * durable, or refused it. Never rejects.
   */
  mergeIntoRoot({ sessionId, commit }: RootCommit): Promise<SessionAnswer> {
    return new Promise((resolve) => this.guarded(null, sessionId, commit, (verdict) => resolve(answerOf(verdict))));
  }

  /** Tells a committing session the verdict on its commit (a session that stopped waiting is not told). */
  answer(sessionId: SessionId, answer: SessionAnswer, into: string): void {
    const node = this.deps.registry.get(sessionId);
    if (node?.state !== 'committing') return;
    try {
      const { events } = this.deps;
      if (events.listening) {
        const event = verdictEvent(
          node,
          into,
          this.deps.clock.now(),
          answer.type === 'MERGED' ? answer : null,
          answer.type === 'REJECTED' ? answer.failure : null,
        );
        if (event) events.emit(event);
      }
      node.tell(answer);
    } catch (thrown) {
      this.deps.reportDefect(thrown);
      node.tell({ type: 'DEFECT', message: 'runtime defect while committing' });
    }
  }

  /** Decides and merges; a defect on the way refuses the commit instead of leaving it unanswered. */
  private guarded(owner: SessionNode | null, sessionId: SessionId, commit: Commit, done: (verdict: Verdict) => void): void {
    const { tracing } = this.deps;
    const child = tracing.enabled ? this.deps.registry.get(sessionId) : undefined;
    const traced = child?.trace ? tracing.mergeStarted(owner, child, commit) : null;
    if (traced) {
      const answer = done;
      done = (verdict) => {
        traced(verdict);
        answer(verdict);
      };
    }
    try {
      this.decide(owner, sessionId, commit, done);
    } catch (thrown) {
      this.deps.reportDefect(thrown);
      done(refused(defect('the merge failed: a runtime defect', thrown)));
    }
  }

  /** Checks the commit can still be merged, then merges it into its owner; `done` gets the verdict once. */
  private decide(owner: SessionNode | null, sessionId: SessionId, commit: Commit, done: (verdict: Verdict) => void): void {
    const { registry, limits, ledger } = this.deps;
    const node = registry.get(sessionId);
    if (node?.state !== 'committing') {
      done(refused(failureSeed('cancelled', `session ${sessionId} is no longer waiting for its merge`)));
      return;
    }
    const broken = commitLimitBroken(sessionId, node.draft, limits);
    if (broken) {
      done(refused(broken));
      return;
    }
    if (!owner) {
      ledger.merge(commit, this.deps.policy, done);
      return;
    }
    if (!registry.has(owner)) {
      done(refused(failureSeed('cancelled', `parent session ${owner.id} has ended`)));
      return;
    }
    this.deps.seams.mergeIntoSession(owner, commit, this.deps.policy, this.deps.clock, done);
  }

  private backpressure(sessionId: SessionId, queued: number): void {
    const node = this.deps.registry.get(sessionId);
    const { events } = this.deps;
    if (node && events.listening)
      events.emit({ type: 'merge.backpressure', sessionId, path: [...node.path], at: this.deps.clock.now(), queued });
  }
}

/** The commit limit a draft's commit breaks (ops, bytes of text), or `null`. */
function commitLimitBroken(sessionId: SessionId, draft: Draft, limits: Limits): FailureSeed | null {
  if (draft.opCount > limits.maxOpsPerCommit) {
    return failureSeed('limit_exceeded', `commit of ${sessionId} has ${draft.opCount} ops; maxOpsPerCommit is ${limits.maxOpsPerCommit}`);
  }
  // bytes ≤ 3 × characters: the exact count only when that bound does not settle it
  if (draft.textLength * 3 <= limits.maxCommitBytes) return null;
  const bytes = draft.textBytes();
  if (bytes > limits.maxCommitBytes) {
    return failureSeed(
      'limit_exceeded',
      `commit of ${sessionId} carries ${bytes} bytes of text; maxCommitBytes is ${limits.maxCommitBytes}`,
    );
  }
  return null;
}
