import { createHash } from 'node:crypto';
import type { AuditEntry, Clock, ConflictPolicy, Limits, Session, SessionFailure, SessionOutcome } from '@cohort/runtime';
import { createRuntime, defaultLimits, withTraceCarrier } from '@cohort/runtime';
import type { Store } from '@cohort/store';
import { DurableError } from '../DurableError.ts';
import { jsonProblem } from '../jsonProblem.ts';
import type { UnitResult, UnitSpec, UnitUsage } from '../UnitSpec.ts';
import type { Bodies } from '../Bodies.ts';
import type { BookAt } from './BookAt.ts';
import { DurableSession } from './DurableSession.ts';
import type { Records } from './Records.ts';
import { MergeOrder } from './MergeOrder.ts';
import { UnitSessions, withoutWallClock } from './UnitSessions.ts';
import { UnitStore } from './UnitStore.ts';
import type { UnitPlacement } from './UnitPlacement.ts';
import { recordStart, watchUnit } from './UnitWatch.ts';
import type { UnitWatch, WatchHost } from './UnitWatch.ts';

/** What every unit of a worker shares. */
export interface UnitHost extends WatchHost {
  readonly journal: Records;
  /** The Skillbook store of every worker: id leases, the books runs start from. */
  readonly store: Store;
  readonly books: BookAt;
  readonly bodies: Bodies;
  readonly limits: Partial<Limits> | undefined;
  readonly conflicts: ConflictPolicy | undefined;
  /** Runs a child unit on the queue (any worker) and waits for its recorded result. */
  runChild(spec: UnitSpec): Promise<UnitResult>;
  /** Calls `stop` when unit `unitId` is cancelled while it runs here; the function returned forgets it. */
  track?(unitId: string, stop: () => void): () => void;
  /** Cancels unit `unitId` and its descendants wherever they run (its proxy ended before its result came). */
  cancelTree?(unitId: string): Promise<void>;
  /** The units' time (their runtimes' clock, deadlines, failure stamps); the real one by default. A simulation's is virtual. */
  readonly clock?: Clock;
}

/** The runtime id of a unit's sessions: the same on every run of the unit, so its audit names the same sessions. */
export function unitRuntimeId(unitId: string): string {
  return `d${createHash('sha256').update(unitId).digest('hex').slice(0, 20)}`;
}

/**
 * Runs one unit: its registered body as the root session of a runtime of its own, on its view
 * book (the store's book at the tree's base revision, plus the view's ops), with recorded id
 * leases. Its commit goes nowhere but into the result: the caller merges it (a parent unit)
 * or appends it to the store (the run's root). Its runtime's events go to the run's event
 * log, placed in the run's tree (`watch`: the caller's, when it reports more after the unit).
 */
export async function runUnit(
  host: UnitHost,
  spec: UnitSpec,
  watch = watchUnit(host, spec, unitRuntimeId(spec.unitId)),
): Promise<UnitResult> {
  const base = await host.books.at(spec.view.baseRevision);
  const now = (): number => host.clock?.now() ?? Date.now();
  if (typeof base === 'string') return unitFailure(spec, 'crashed', base, now());
  const view = spec.view.ops.length === 0 ? base : base.replay(spec.view.ops);
  const viewBook = 'ok' in view ? (view.ok ? view.book : null) : view;
  if (!viewBook) {
    return unitFailure(spec, 'invalid_commit', `the unit's view does not replay on revision ${spec.view.baseRevision}`, now());
  }
  const resumed = await recordStart(host, spec, watch, now());
  if (resumed) watch.events?.push(resumed);
  // the deadline is recorded at the unit's first start: a timeout is wall-clock across crashes and restarts
  const deadline = spec.timeoutMs
    ? await host.journal.recorded(spec.unitId, 'deadline', async () => now() + (spec.timeoutMs ?? 0))
    : undefined;
  // so is a wall-clock budget
  const wallClock = spec.budget?.ms
    ? await host.journal.recorded(spec.unitId, 'wall-clock', async () => now() + (spec.budget?.ms ?? 0))
    : undefined;
  const order = new MergeOrder(host.journal, spec.unitId);
  await order.load();
  const rt = createRuntime({
    store: new UnitStore(viewBook, host.journal, spec.unitId, host.store),
    runtimeId: unitRuntimeId(spec.unitId),
    auditWindow: Number.POSITIVE_INFINITY,
    limits: unitLimits(host.limits, spec),
    ...(host.clock ? { clock: host.clock } : {}),
    ...(host.conflicts ? { conflicts: host.conflicts } : {}),
    // what the spawning session had left: the unit's root session spends from it
    ...(spec.budget ? { budget: withoutWallClock(spec.budget) } : {}),
  });
  const untrack = host.track?.(spec.unitId, () => void rt.close());
  const run = new UnitSessions(host, spec, order, watch.placement);
  let usage: UnitUsage = { tokens: 0, requests: 0 };
  const events = rt.events$.subscribe((e) => {
    // a merge's verdict event is told as the merge happens: where it fell among its parent's own writes
    run.observed(e);
    if (watch.events) placed(watch, e);
    // what the unit's root session and its descendants charged, final when it settles (its merge or its failure)
    if ((e.type === 'session.merged' || e.type === 'session.failed') && e.path.length === 1 && e.charged) usage = e.charged;
  });
  try {
    const body = host.bodies.get(spec.body);
    // the unit's root session is a child of the spawning session's span, wherever it runs
    const outcome = await withTraceCarrier(spec.trace, () =>
      rt.run(
        async (s: Session) => {
          const output: unknown = await (body as (s: Session) => unknown)(new DurableSession(s, run, '0', [], spec.attempt));
          const problem = jsonProblem(output, 'output');
          if (problem) throw new DurableError('DURABLE_UNSERIALISABLE', `the output of body ${spec.body} cannot be recorded: ${problem}`);
          return output;
        },
        {
          input: spec.input as never,
          ...(spec.name !== undefined ? { name: spec.name } : {}),
          ...(deadline !== undefined ? { timeoutMs: Math.max(1, deadline - now()) } : {}),
          ...(wallClock !== undefined ? { budget: { ms: Math.max(1, wallClock - now()) } } : {}),
        },
      ),
    );
    return { ...resultOf(spec, outcome, rt.audit), usage };
  } finally {
    untrack?.();
    await rt.close();
    events.unsubscribe();
    // every event of a unit that ends is in the log before its result is recorded
    await watch.events?.flush();
  }
}

function placed(watch: UnitWatch, event: Parameters<UnitPlacement['map']>[0]): void {
  const mapped = watch.placement.map(event);
  if (mapped) watch.events?.push(mapped);
}

/**
 * The limits of a unit's runtime: the worker's, with the depth counted from the tree's root
 * (the unit's root session is at its home's depth, not at 0). The other limits hold per unit.
 */
function unitLimits(limits: Partial<Limits> | undefined, spec: UnitSpec): Partial<Limits> {
  const depth = spec.home ? spec.home.path.length - 1 : 0;
  return { ...limits, maxDepth: Math.max(0, (limits?.maxDepth ?? defaultLimits.maxDepth) - depth) };
}

/** The unit's result, its sessions renamed to their place in the parent's tree (`spec.home`). */
function resultOf(spec: UnitSpec, outcome: SessionOutcome, audit: readonly AuditEntry[]): UnitResult {
  const home = spec.home;
  const rehome = (path: readonly string[]): string[] =>
    home && path[0] === outcome.sessionId ? home.path.concat(path.slice(1)) : [...path];
  if (outcome.status === 'failed') {
    const { failure } = outcome;
    const sessionId = home && failure.sessionId === outcome.sessionId ? home.sessionId : failure.sessionId;
    const attempt = spec.attempt ?? failure.attempt;
    return { status: 'failed', failure: { ...failure, sessionId, path: rehome(failure.path), attempt } as SessionFailure };
  }
  const entries = audit.map((e): AuditEntry => {
    const path = rehome(e.path);
    return {
      revision: e.revision,
      sessionId: (path.at(-1) ?? e.sessionId) as AuditEntry['sessionId'],
      path: path as unknown as AuditEntry['path'],
      ...(e.name !== undefined ? { name: e.name } : {}),
      ops: e.ops,
    };
  });
  const sessions = new Set(audit.map((e) => e.sessionId));
  sessions.delete(outcome.sessionId);
  return {
    status: 'committed',
    sessionId: home?.sessionId ?? outcome.sessionId,
    path: home?.path ?? [...outcome.path],
    output: outcome.output,
    entries,
    descendants: sessions.size,
    refused: outcome.refused,
    attempt: spec.attempt ?? outcome.attempt,
  };
}

/** A unit that failed before its session ran (its view could not be built). */
function unitFailure(spec: UnitSpec, kind: SessionFailure['kind'], message: string, at: number): UnitResult {
  const sessionId = spec.home?.sessionId ?? `${unitRuntimeId(spec.unitId)}.1`;
  return {
    status: 'failed',
    failure: {
      kind,
      category: 'error',
      sessionId: sessionId as SessionFailure['sessionId'],
      path: (spec.home?.path ?? [sessionId]) as SessionFailure['path'],
      message,
      discarded: { ops: 0, descendants: 0 },
      attempt: 1,
      at,
    },
  };
}
