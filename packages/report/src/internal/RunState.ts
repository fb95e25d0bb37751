import type { AuditEntry, PlacedEvent, RuntimeEvent, SessionEvent, SessionResumedEvent } from '@cohort/runtime';
import type { Skillbook } from '@cohort/skillbook';
import type { StoreNotice } from '@cohort/store';
import { diffBooks } from '../diffBooks.ts';
import type { MachineStateChange } from '../InspectionTap.ts';
import { keptCall } from '../RecordingContent.ts';
import type { CallPolicy } from '../RecordingContent.ts';
import type { BookDiff, Mark, NoticeRecord, RunRecord, SessionRecord, SessionStatus, SupervisorView } from '../Recording.ts';

/** How many notices and marks a reader has had. */
export interface RunProgress {
  readonly notices: number;
  readonly marks: number;
}

/** See {@link RunState.since}. */
export interface RunTail {
  readonly notices: NoticeRecord[];
  readonly marks: Mark[];
  readonly supervisor: SupervisorView | null;
  readonly endedAt: number | null;
  readonly progress: RunProgress;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };
type LiveRecord = Mutable<SessionRecord>;

/** How far along its lifecycle a status is: a late or duplicate report never moves a session back. */
const RANK: Readonly<Record<SessionStatus, number>> = { running: 0, draining: 1, committing: 2, committed: 3, failed: 3 };

/**
 * The mutable state of one run while it is recorded: sessions by id in spawn order, notices,
 * marks, the root supervisor, and the book before (and after). Every `apply…` is O(1) per
 * event; `snapshot` copies what later events could still change.
 */
export class RunState {
  private readonly sessions = new Map<string, LiveRecord>();
  private readonly notices: NoticeRecord[] = [];
  private readonly marks: Mark[] = [];
  private supervisor: SupervisorView | null = null;
  private bookBefore: Skillbook | null = null;
  private bookAfter: Skillbook | null = null;
  private diffCache: { readonly after: Skillbook; readonly diff: BookDiff } | null = null;
  private endedAt: number | null = null;
  /** The latest time any event carried. */
  lastAt: number;

  constructor(
    readonly id: string,
    readonly label: string,
    readonly startedAt: number,
    /** What is kept of each model and tool call. */
    private readonly calls: CallPolicy,
  ) {
    this.lastAt = startedAt;
  }

  get ended(): boolean {
    return this.endedAt !== null;
  }

  /**
   * Feeds one runtime event (`now`: the recorder's clock, for store notices), or a placed one
   * of a tree spread over workers. Returns the session it changed, if any.
   */
  apply(event: RuntimeEvent | PlacedEvent, now: number): string | null {
    if (event.at > this.lastAt) this.lastAt = event.at;
    if (event.type.startsWith('store.')) {
      this.notices.push({ seenAt: now, notice: event as StoreNotice });
      return null;
    }
    if (event.type === 'session.resumed') return this.resumed(event as SessionResumedEvent);
    const e = event as SessionEvent & { readonly worker?: string };
    // a session's events name the worker that ran it; a placeholder's (a durable proxy's) name none
    if (e.type !== 'runtime.defect' && e.worker !== undefined) this.session(e.sessionId, e.path, e.at).worker = e.worker;
    switch (e.type) {
      case 'session.spawned':
        this.spawned(e);
        return e.sessionId;
      case 'session.committed':
        this.session(e.sessionId, e.path, e.at).commit = { at: e.at, ops: e.ops, baseRevision: e.baseRevision };
        this.advance(e.sessionId, 'committing', e.at);
        return e.sessionId;
      case 'session.merged':
        this.session(e.sessionId, e.path, e.at).merge = { at: e.at, into: e.into, revision: e.revision, ops: e.ops, dropped: e.dropped };
        this.settle(e.sessionId, 'committed', e.at, e);
        return e.sessionId;
      case 'session.rejected':
        this.session(e.sessionId, e.path, e.at).rejection = { at: e.at, into: e.into, conflicts: e.conflicts };
        return e.sessionId;
      case 'session.call':
        this.called(e);
        return e.sessionId;
      case 'session.failed':
        this.session(e.sessionId, e.path, e.at).failure = e.failure;
        if (e.discardedOps) this.session(e.sessionId, e.path, e.at).discardedOps = e.discardedOps;
        this.settle(e.sessionId, 'failed', e.at, e);
        return e.sessionId;
      case 'merge.backpressure':
        this.marks.push({ type: 'backpressure', at: e.at, sessionId: e.sessionId, queued: e.queued });
        return null;
      case 'runtime.defect':
        this.marks.push({ type: 'defect', at: e.at, error: e.error });
        return null;
      default:
        // session.cancelled: the session.failed that follows it carries the whole failure
        return null;
    }
  }

  /** Feeds one inspected machine state. Returns the session it changed, if any. */
  applyState(change: MachineStateChange, now: number): string | null {
    if (change.kind === 'supervisor') {
      const { kind: _kind, ...view } = change;
      this.supervisor = view;
      return null;
    }
    const record = this.sessions.get(change.sessionId);
    if (!record) return null;
    this.advance(change.sessionId, change.state as SessionStatus, now);
    return change.sessionId;
  }

  /** Attributes audit entries (blocks that reached the book) to the sessions that wrote them. */
  land(entries: readonly AuditEntry[], now: number): string[] {
    const touched: string[] = [];
    for (const entry of entries) {
      const record = this.session(entry.sessionId, entry.path, now);
      record.landed.push({ revision: entry.revision, ops: entry.ops as LiveRecord['landed'][number]['ops'] });
      touched.push(entry.sessionId);
    }
    return touched;
  }

  setBookBefore(book: Skillbook): void {
    this.bookBefore = book;
  }

  setBookAfter(book: Skillbook): void {
    this.bookAfter = book;
  }

  setSupervisor(view: SupervisorView | null): void {
    this.supervisor = view;
  }

  finish(now: number): void {
    this.endedAt ??= now;
  }

  /** The run as serialisable data: a copy that later events leave alone. */
  snapshot(): RunRecord {
    return {
      id: this.id,
      label: this.label,
      startedAt: this.startedAt,
      endedAt: this.endedAt,
      sessions: [...this.sessions.values()].map((r) => this.sessionCopy(r)),
      notices: [...this.notices],
      marks: [...this.marks],
      book: this.diff(),
      supervisor: this.supervisor,
    };
  }

  /** One session as serialisable data, or null when unknown. */
  sessionSnapshot(id: string): SessionRecord | null {
    const record = this.sessions.get(id);
    return record ? this.sessionCopy(record) : null;
  }

  /** What is new since the given counts of notices and marks, and the run's own state now (for streaming). */
  since(from: RunProgress): RunTail {
    return {
      notices: this.notices.slice(from.notices),
      marks: this.marks.slice(from.marks),
      supervisor: this.supervisor,
      endedAt: this.endedAt,
      progress: { notices: this.notices.length, marks: this.marks.length },
    };
  }

  private sessionCopy(r: LiveRecord): SessionRecord {
    const { states, landed, modelCalls, toolCalls, resumes } = r;
    return {
      ...r,
      states: [...states],
      landed: [...landed],
      modelCalls: [...modelCalls],
      toolCalls: [...toolCalls],
      resumes: [...resumes],
    };
  }

  private diff(): BookDiff | null {
    if (!this.bookBefore || !this.bookAfter) return null;
    if (this.diffCache?.after !== this.bookAfter)
      this.diffCache = { after: this.bookAfter, diff: diffBooks(this.bookBefore, this.bookAfter) };
    return this.diffCache.diff;
  }

  /** A model or tool call, kept as the recording's content option says; one it cannot keep is marked as a defect. */
  private called(e: Extract<SessionEvent, { type: 'session.call' }>): void {
    const record = this.session(e.sessionId, e.path, e.at);
    const kept = keptCall(this.calls, e.call, { id: e.sessionId, path: e.path });
    if (!kept.ok) {
      this.marks.push({ type: 'defect', at: e.at, error: { name: 'InvalidSessionCall', message: kept.message } });
      return;
    }
    const { call } = kept;
    if (call?.type === 'model') record.modelCalls.push({ ...call, at: e.at });
    else if (call?.type === 'tool') record.toolCalls.push({ ...call, at: e.at });
  }

  /** A resume: the session's body runs again on `e.worker`. */
  private resumed(e: SessionResumedEvent): string {
    const record = this.session(e.sessionId, e.path, e.at);
    if (!record.resumes.some((r) => r.start === e.start))
      record.resumes.push({ at: e.at, worker: e.worker, start: e.start, previous: e.previous });
    record.worker = e.worker;
    return e.sessionId;
  }

  private spawned(e: Extract<SessionEvent, { type: 'session.spawned' }>): void {
    const record = this.session(e.sessionId, e.path, e.at);
    record.parentId = e.parentId;
    record.depth = e.depth;
    record.attempt = e.attempt;
    if (e.name !== undefined) record.name = e.name;
  }

  /** The session's record, created on first sight (a session first seen after its spawn still gets one). */
  private session(id: string, path: readonly string[], at: number): LiveRecord {
    let record = this.sessions.get(id);
    if (record) return record;
    record = {
      id,
      parentId: path.length > 1 ? (path[path.length - 2] ?? null) : null,
      path: [...path],
      depth: path.length - 1,
      attempt: 1,
      status: 'running',
      spawnedAt: at,
      endedAt: null,
      states: [{ state: 'running', at }],
      commit: null,
      merge: null,
      rejection: null,
      failure: null,
      landed: [],
      charged: null,
      modelCalls: [],
      toolCalls: [],
      discardedOps: [],
      worker: null,
      resumes: [],
    };
    this.sessions.set(id, record);
    return record;
  }

  private advance(id: string, status: SessionStatus, at: number): void {
    const record = this.sessions.get(id);
    if (!record || !(status in RANK)) return;
    const last = record.states[record.states.length - 1];
    if (last?.state !== status && RANK[status] >= RANK[record.status]) record.states.push({ state: status, at });
    if (RANK[status] > RANK[record.status]) record.status = status;
  }

  private settle(
    id: string,
    status: 'committed' | 'failed',
    at: number,
    event: { readonly charged?: { readonly tokens: number; readonly requests: number } | undefined },
  ): void {
    this.advance(id, status, at);
    const record = this.sessions.get(id);
    if (!record) return;
    record.endedAt ??= at;
    // a log written before the runtime reported charges has none: the report says so
    if (event.charged) record.charged ??= { tokens: event.charged.tokens, requests: event.charged.requests };
  }
}
