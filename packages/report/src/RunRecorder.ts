import { Subject } from 'rxjs';
import type { Observable, Subscription } from 'rxjs';
import { systemClock } from '@cohort/runtime';
import type { AuditEntry, Clock, PlacedEvent, RuntimeEvent } from '@cohort/runtime';
import type { Skillbook } from '@cohort/skillbook';
import type { InspectionTap } from './InspectionTap.ts';
import { RECORDING_FORMAT } from './Recording.ts';
import { callPolicy, contentMode } from './RecordingContent.ts';
import type { CallPolicy, ContentMode, RecordingContent } from './RecordingContent.ts';
import type { Recording, RunRecord, SessionRecord } from './Recording.ts';
import { RunState } from './internal/RunState.ts';
import type { RunProgress, RunTail } from './internal/RunState.ts';

/**
 * What a recorder reads from a runtime: a `Runtime` from `@cohort/runtime` has all of it. A
 * tree spread over workers (a durable run's `durable.watch(id)`) gives only its events, placed
 * (each names its worker): its run has no book diff.
 */
export interface RecordableRuntime {
  readonly events$: Observable<RuntimeEvent | PlacedEvent>;
  readonly book?: Skillbook;
  readonly audit?: readonly AuditEntry[];
  readonly ready?: Promise<void>;
}

/** Options of a {@link RunRecorder}. */
export interface RecorderOptions {
  /** The report's title (default `Cohort run`). */
  readonly title?: string;
  /** Time for inspected states and notices: pass the runtime's clock when it has one of its own (default: the real clock). */
  readonly clock?: Clock;
  /**
   * What is kept of the model and tool calls sessions make (`@cohort/ai` records them): `'on'`
   * (default), `'off'`, or a function that redacts each call. See docs/observability.md,
   * "Recording content and privacy".
   */
  readonly content?: RecordingContent;
  /** The most characters of text one call keeps (default 20,000); longer texts are cut with a marker. */
  readonly maxCallChars?: number;
}

/** Options of {@link RunRecorder.attach}. */
export interface AttachOptions {
  /** The run's name in the report (default `run 1`, `run 2`…). */
  readonly label?: string;
  /** The runtime's inspection tap, for machine states (`draining`) and the root supervisor. */
  readonly inspection?: InspectionTap;
}

/** What changed in a recording: a session, or the run itself (notices, marks, book, end). */
export type RecordingChange = { readonly runId: string; readonly sessionId: string | null };

/**
 * Records runs — one per runtime — from `rt.events$`, the audit, the book and, when given, an
 * inspection tap; `recording()` is serialisable JSON at any moment. A run ends when its
 * runtime closes (its `events$` completes) or when `stop()` is called.
 *
 * @example
 * const recorder = new RunRecorder({ title: 'nightly' });
 * recorder.attach(rt, { label: 'first pass' });
 * await rt.run(body);
 * const recording = recorder.stop();
 */
export class RunRecorder {
  readonly title: string;
  private readonly clock: Clock;
  private readonly content: ContentMode;
  private readonly calls: CallPolicy;
  private readonly runs: RunState[] = [];
  private readonly detachers = new Map<RunState, () => void>();
  /** Runs fed by `observe`, by label. */
  private readonly observed = new Map<string, RunState>();
  private readonly changes = new Subject<RecordingChange>();
  /** Each change as it is recorded (the live view streams these). */
  readonly changes$ = this.changes.asObservable();

  constructor(options: RecorderOptions = {}) {
    this.title = options.title ?? 'Cohort run';
    this.clock = options.clock ?? systemClock;
    this.content = contentMode(options.content ?? 'on');
    this.calls = callPolicy(options.content ?? 'on', options.maxCallChars);
  }

  /** Starts recording a runtime as a new run; returns the run's id. Attach before the runtime runs sessions. */
  attach(rt: RecordableRuntime, options: AttachOptions = {}): string {
    const run = this.newRun(options.label);
    let auditIndex = rt.audit?.length ?? 0;
    let merged = false;
    if (rt.book) run.setBookBefore(rt.book);
    // a store loads asynchronously: the run starts from the book it loaded (nothing merges before)
    rt.ready?.then(
      () => merged || (rt.book && run.setBookBefore(rt.book)),
      () => undefined,
    );
    const landNew = (): void => {
      const audit = rt.audit ?? [];
      const fresh = audit.slice(auditIndex);
      auditIndex = audit.length;
      for (const id of run.land(fresh, this.clock.now())) this.changed(run, id);
      if (rt.book) run.setBookAfter(rt.book);
    };
    const subs: Subscription[] = [];
    const finish = (): void => {
      for (const s of subs) s.unsubscribe();
      landNew();
      this.finishRun(run);
    };
    subs.push(
      rt.events$.subscribe({
        next: (event) => {
          this.changed(run, run.apply(event, this.clock.now()));
          if (event.type === 'session.merged' && event.into === 'root') {
            merged = true;
            landNew();
          }
        },
        complete: finish,
      }),
    );
    if (options.inspection) this.tapInto(run, options.inspection, subs);
    this.detachers.set(run, finish);
    return run.id;
  }

  /**
   * Records a stream of events without a runtime (a simulation's timeline, a saved log): the
   * run has no book and no ops, only what the events carry.
   */
  observe(event: RuntimeEvent | PlacedEvent, runLabel?: string): void {
    const label = runLabel ?? 'run 1';
    let run = this.observed.get(label);
    if (!run) {
      run = this.newRun(label, event.at);
      this.observed.set(label, run);
    }
    this.changed(run, run.apply(event, event.at));
  }

  /** The recording so far: serialisable, and not changed by later events. */
  recording(): Recording {
    const runs = this.runs.map((r) => r.snapshot());
    return { format: RECORDING_FORMAT, version: 1, title: this.title, content: this.content, runs };
  }

  /** One run as recorded so far, or null. */
  run(runId: string): RunRecord | null {
    return this.runs.find((r) => r.id === runId)?.snapshot() ?? null;
  }

  /** One session of a run as recorded so far, or null. */
  session(runId: string, sessionId: string): SessionRecord | null {
    return this.runs.find((r) => r.id === runId)?.sessionSnapshot(sessionId) ?? null;
  }

  /** A run's notices and marks since the given counts, and its supervisor and end (for streaming), or null. */
  since(runId: string, from: RunProgress): RunTail | null {
    return this.runs.find((r) => r.id === runId)?.since(from) ?? null;
  }

  /** Stops recording every run (their books as they are now are the "after") and returns the recording. */
  stop(): Recording {
    for (const finish of [...this.detachers.values()]) finish();
    // a run fed by `observe` ends at its last event: its times are the events' own
    for (const run of this.runs) this.finishRun(run, this.observed.get(run.label) === run ? run.lastAt : undefined);
    this.changes.complete();
    return this.recording();
  }

  private newRun(label: string | undefined, startedAt?: number): RunState {
    const n = this.runs.length + 1;
    const run = new RunState(`r${n}`, label ?? `run ${n}`, startedAt ?? this.clock.now(), this.calls);
    this.runs.push(run);
    return run;
  }

  private tapInto(run: RunState, tap: InspectionTap, subs: Subscription[]): void {
    run.setSupervisor(tap.supervisor);
    subs.push(tap.changes$.subscribe((change) => this.changed(run, run.applyState(change, this.clock.now()))));
  }

  private finishRun(run: RunState, at = this.clock.now()): void {
    if (run.ended) return;
    this.detachers.delete(run);
    run.finish(at);
    this.changed(run, null);
  }

  private changed(run: RunState, sessionId: string | null): void {
    this.changes.next({ runId: run.id, sessionId });
  }
}
