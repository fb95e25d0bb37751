import type { AuditEntry, RuntimeEvent, SessionOutcome } from '@cohort/runtime';
import type { AppliedOp, Conflict, Skillbook } from '@cohort/skillbook';
import type { PersistedCommit } from '@cohort/store';
import type { AppendRecord } from './stores/RecordingStore.ts';
import type { TimelineEvent } from './SimReport.ts';

/** What a draft saw, in order: a batch of its own applied ops, or a child's merged commit. */
export type LogItem = { readonly own: readonly AppliedOp[] } | { readonly child: string; readonly dropped: readonly Conflict[] };

/** Everything observed about one session, from events and from its own body. */
export interface SessionRecord {
  readonly id: string;
  readonly parentId: string | null;
  readonly path: readonly string[];
  readonly attempt: number;
  /** Its draft's history: own writes (as the body saw them applied) and merged children. */
  readonly log: LogItem[];
  /** ADD ids it allocated (explicit ids excluded). */
  readonly allocated: string[];
  /** Terminal events (`session.merged` / `session.failed`), with their timeline index. */
  readonly terminals: { readonly type: 'merged' | 'failed'; readonly index: number; readonly kind: string | null }[];
  /** Timeline index of its `session.committed` event, if any. */
  committedAt: number | null;
}

/** One `s.spawn` or `rt.run` call, and the outcome it delivered. */
export interface SpawnCall {
  readonly parentId: string | null;
  outcome: SessionOutcome | null;
  deliveries: number;
}

/**
 * The observations of one epoch (one runtime): the timeline, each session's own writes and
 * merges, the merge order at the root, every spawn call and its outcome, what the store was
 * asked to append, and the runtime's final book and audit. The reference model and the
 * invariants read only this.
 */
export class EpochRecord {
  readonly sessions = new Map<string, SessionRecord>();
  /** Merges into the root, in the order the runtime acknowledged them. */
  readonly rootMerges: { readonly sessionId: string; readonly revision: number; readonly dropped: readonly Conflict[] }[] = [];
  readonly calls: SpawnCall[] = [];
  readonly events: { readonly index: number; readonly event: RuntimeEvent }[] = [];
  /** Work that never settled (virtual time ran out with sessions pending, or a close that hung). */
  readonly hangs: string[] = [];
  /** Errors that escaped: a rejected `rt.run` or spawn, an unhandled rejection, an uncaught exception. */
  readonly escaped: string[] = [];
  /** Tool results that named another skill than the one the tool wrote. */
  readonly misreported: string[] = [];
  appends: readonly AppendRecord[] = [];
  final: { readonly book: Skillbook; readonly audit: readonly AuditEntry[]; readonly live: number } | null = null;
  /** The store's persisted history once every root settled (null: a crash came first, or it could not be read). */
  history: readonly PersistedCommit[] | null = null;
  crashed = false;

  constructor(
    readonly epoch: number,
    readonly initial: Skillbook,
    private readonly push: (event: TimelineEvent) => number,
    /** Which of several runtimes on the store at once this is (1-based), or null for an epoch's one runtime. */
    readonly writer: number | null = null,
  ) {}

  /** Feeds one runtime event. */
  observe(event: RuntimeEvent): void {
    const index = this.push(event);
    this.events.push({ index, event });
    if (event.type === 'session.spawned') {
      this.session(event.sessionId, event.parentId, event.path, event.attempt);
    } else if (event.type === 'session.committed') {
      this.session(event.sessionId).committedAt = index;
    } else if (event.type === 'session.merged') {
      this.session(event.sessionId).terminals.push({ type: 'merged', index, kind: null });
      if (event.into === 'root') this.rootMerges.push({ sessionId: event.sessionId, revision: event.revision, dropped: event.dropped });
      else this.session(event.into).log.push({ child: event.sessionId, dropped: event.dropped });
    } else if (event.type === 'session.failed') {
      this.session(event.sessionId).terminals.push({ type: 'failed', index, kind: event.failure.kind });
    }
  }

  /** Records a body's own write, as the runtime applied it, at the moment it happened. */
  own(sessionId: string, ops: readonly AppliedOp[], explicit: ReadonlySet<string>): void {
    if (ops.length === 0) return;
    const record = this.session(sessionId);
    record.log.push({ own: ops });
    for (const op of ops) if (op.type === 'ADD' && !explicit.has(op.skill_id)) record.allocated.push(op.skill_id);
    this.push({ type: 'sim.write', path: [...record.path], ops: ops.map((op) => `${op.type} ${op.skill_id}`) });
  }

  /** Registers a spawn (or run) call; returns the function that records its outcome. */
  call(parentId: string | null): (outcome: SessionOutcome) => void {
    const call: SpawnCall = { parentId, outcome: null, deliveries: 0 };
    this.calls.push(call);
    return (outcome) => {
      call.outcome = outcome;
      call.deliveries += 1;
    };
  }

  /** Adds a harness event to the timeline. */
  note(event: TimelineEvent): void {
    this.push(event);
  }

  /** The session's record, created on first sight. */
  session(id: string, parentId: string | null = null, path: readonly string[] = [id], attempt = 1): SessionRecord {
    let record = this.sessions.get(id);
    if (!record) {
      record = { id, parentId, path: [...path], attempt, log: [], allocated: [], terminals: [], committedAt: null };
      this.sessions.set(id, record);
    }
    return record;
  }
}
