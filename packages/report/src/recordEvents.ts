import { parsePlacedEvent } from '@cohort/runtime';
import type { PlacedEvent, RuntimeEvent } from '@cohort/runtime';
import { StoreNoticeSchema } from '@cohort/store';
import type { Recording } from './Recording.ts';
import { RunRecorder } from './RunRecorder.ts';
import type { RecorderOptions } from './RunRecorder.ts';

/**
 * One logged event. `run` (or a simulation's `epoch`) names the runtime it came from: session
 * ids restart with each runtime, so each run is kept apart.
 */
export interface LoggedEvent {
  readonly event: unknown;
  readonly run?: string;
  readonly epoch?: number;
}

/**
 * A recording made from logged events alone — a simulation's timeline (`report.timeline`), a
 * saved `events$` log, a durable run's events — with no runtime at hand: sessions, merges, failures, conflicts and
 * notices, but no book diff and no ops beyond their counts. Entries that are not runtime
 * events (a simulation's own `sim.*` events) are skipped; so is anything that does not parse.
 *
 * @example
 * const report = await simulate({ seed: 7 });
 * const recording = recordEvents(report.timeline, { title: 'sim seed 7' });
 */
export function recordEvents(entries: Iterable<LoggedEvent>, options: Omit<RecorderOptions, 'clock'> = {}): Recording {
  const recorder = new RunRecorder(options);
  for (const entry of entries) {
    const event = parseRuntimeEvent(entry.event);
    if (!event) continue;
    recorder.observe(event, entry.run ?? (entry.epoch !== undefined ? `epoch ${entry.epoch}` : undefined));
  }
  return recorder.stop();
}

/** A runtime event, or a placed one (a durable tree's: with its worker, or a resume). */
function parseRuntimeEvent(raw: unknown): RuntimeEvent | PlacedEvent | null {
  const type = (raw as { type?: unknown } | null)?.type;
  if (typeof type !== 'string') return null;
  if (!type.startsWith('store.')) return parsePlacedEvent(raw);
  const parsed = StoreNoticeSchema.safeParse(raw);
  return parsed.success ? parsed.data : null;
}
