import type { SessionResumedEvent } from '@cohort/runtime';
import type { UnitSpec } from '../UnitSpec.ts';
import type { EventSink } from './EventLog.ts';
import { UnitEvents } from './EventLog.ts';
import type { Records } from './Records.ts';
import { UnitPlacement } from './UnitPlacement.ts';

/** What a unit needs to be watched: where its events go and whether they keep calls. */
export interface WatchHost {
  readonly journal: Records;
  readonly executorId?: string | undefined;
  /** The run event log (absent: nothing is recorded). */
  readonly events?: EventSink | undefined;
  /** Whether model and tool calls go to the log too (default true). */
  readonly eventCalls?: boolean | undefined;
}

/** One start of one unit, watched: how its events are placed in the tree, and where they go. */
export interface UnitWatch {
  readonly placement: UnitPlacement;
  readonly events: UnitEvents | null;
}

/** The watch of a start of `spec`'s unit, whose sessions' runtime id is `runtimeId`. */
export function watchUnit(host: WatchHost, spec: UnitSpec, runtimeId: string): UnitWatch {
  const run = spec.unitId.split('/')[0] ?? spec.unitId;
  const placement = new UnitPlacement({
    unitId: spec.unitId,
    worker: host.executorId,
    runtimeId,
    home: spec.home,
    calls: host.eventCalls ?? true,
  });
  return { placement, events: host.events ? new UnitEvents(host.events, run) : null };
}

/**
 * Records this start of the unit — the worker that started it, at each start (`cohort runs
 * show` lists them) — and says whether it is a resume: a start after an earlier one (its
 * worker was lost: a crash, a takeover, a restart), as a `session.resumed` event of the unit's
 * root session.
 */
export async function recordStart(host: WatchHost, spec: UnitSpec, watch: UnitWatch, at: number): Promise<SessionResumedEvent | null> {
  const worker = host.executorId;
  if (worker === undefined) return null;
  const key = `start:${at}:${worker}`;
  await host.journal.record(spec.unitId, key, { executor: worker, at });
  const starts = (await host.journal.list(spec.unitId, 'start:'))
    .map(({ key: k, value }) => ({ key: k, ...(value as { executor: string; at: number }) }))
    .sort((a, b) => a.at - b.at || a.key.localeCompare(b.key));
  const index = starts.findIndex((s) => s.key === key);
  if (index < 1) return null;
  const { sessionId, path } = watch.placement.home;
  return {
    type: 'session.resumed',
    sessionId,
    path,
    at,
    worker,
    unit: spec.unitId,
    start: index + 1,
    previous: starts[index - 1]?.executor ?? null,
  };
}
