import type { Runtime, Session, SessionOutcome } from '@cohort/runtime';
import type { Conflict } from '@cohort/skillbook';

/** What a task's commit or abort says, as values: what landed, the final ids, the conflicts. */
export interface TaskResult {
  readonly task: string;
  readonly name: string;
  readonly status: 'committed' | 'conflict' | 'aborted' | 'failed';
  /** The root book's revision after the commit (committed only). */
  readonly revision?: number;
  /** The ids of the skills the commit added: final, the same in every copy of the book. */
  readonly added: readonly string[];
  /** Each op that landed, `TYPE skill-id`, in the order it was written. */
  readonly landed: readonly string[];
  /** Why nothing landed: each conflicting op, its skill and the reason. */
  readonly conflicts: readonly Conflict[];
  /** Ops of the draft that were dropped with it (conflict, abort, failure). */
  readonly discarded: number;
  readonly message?: string;
}

type Ending = { readonly type: 'commit' } | { readonly type: 'abort'; readonly reason: string };

/**
 * One client task: a root session of the runtime, running until the client commits or aborts.
 * Its body holds the session open and waits; the client's writes go to the session's tools, so
 * they land in its private draft, and the runtime decides the commit (conflicts, ids, audit).
 *
 * @example
 * const task = await TaskSession.begin(rt, 'claude-code/refactor');
 * await task.session.tools.add_skill({ section: 'harness', issue: 'flaky test', insight: 'rerun once' });
 * const result = await task.commit();
 */
export class TaskSession {
  private settled: Promise<TaskResult> | null = null;
  /** The draft's step when the task began: each write moves it on by one. */
  private readonly startStep: number;

  private constructor(
    private readonly rt: Runtime,
    readonly session: Session,
    readonly name: string,
    private readonly end: (ending: Ending) => void,
    private readonly outcome: Promise<SessionOutcome<unknown>>,
  ) {
    this.startStep = session.book.revision;
  }

  /** Starts a task's session; resolves once it runs (or with why it could not start). */
  static async begin(rt: Runtime, name: string): Promise<TaskSession | { readonly error: string }> {
    let end: (ending: Ending) => void = () => {};
    const ended = new Promise<Ending>((resolve) => (end = resolve));
    let started: (s: Session) => void = () => {};
    const running = new Promise<Session>((resolve) => (started = resolve));
    const outcome = rt.run(
      async (s) => {
        started(s);
        const ending = await ended;
        if (ending.type === 'abort') s.abort(ending.reason);
      },
      { name },
    );
    const first = await Promise.race([running, outcome]);
    if ('status' in first) return { error: first.status === 'failed' ? first.failure.message : 'the task ended at once' };
    return new TaskSession(rt, first, name, end, outcome);
  }

  /** The session's id: the task's id, unique across processes and time. */
  get id(): string {
    return this.session.id;
  }

  /** How many writes the draft holds. */
  get writes(): number {
    return this.session.book.revision - this.startStep;
  }

  /** Whether the task has been committed or aborted (or is on its way). */
  get ended(): boolean {
    return this.settled !== null;
  }

  /** Commits the draft through the runtime; resolves with what landed or the conflicts. */
  commit(): Promise<TaskResult> {
    this.settled ??= this.finish({ type: 'commit' });
    return this.settled;
  }

  /** Drops the draft; nothing of it is written anywhere. */
  abort(reason: string): Promise<TaskResult> {
    this.settled ??= this.finish({ type: 'abort', reason });
    return this.settled;
  }

  private async finish(ending: Ending): Promise<TaskResult> {
    this.end(ending);
    const outcome = await this.outcome;
    const base = { task: this.id, name: this.name };
    if (outcome.status === 'committed') {
      const ops = this.rt.audit.filter((e) => e.sessionId === outcome.sessionId).flatMap((e) => e.ops);
      return {
        ...base,
        status: 'committed',
        revision: outcome.revision,
        added: [...outcome.added],
        landed: ops.map((op) => `${op.type} ${op.skill_id}`),
        conflicts: [],
        discarded: 0,
      };
    }
    const { failure } = outcome;
    const status = failure.kind === 'conflict' ? 'conflict' : failure.kind === 'aborted' ? 'aborted' : 'failed';
    return {
      ...base,
      status,
      added: [],
      landed: [],
      conflicts: failure.conflicts ?? [],
      discarded: failure.discarded.ops,
      message: failure.message,
    };
  }
}
