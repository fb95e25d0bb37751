import { z } from 'zod';
import { SessionEventSchema } from './RuntimeEvent.ts';
import type { SessionEvent } from './RuntimeEvent.ts';
import { SessionIdSchema } from './SessionId.ts';

/**
 * Where an event happened, for hosts that run one tree's sessions on several worker processes
 * (`@cohort/durable`): the worker that ran the session, and the unit of work it ran in. The
 * runtime itself never sets them; a viewer shows them when they are there.
 */
export const PlacementSchema = z.object({ worker: z.string().min(1).optional(), unit: z.string().min(1).optional() });
/** See {@link PlacementSchema}. */
export type Placement = z.infer<typeof PlacementSchema>;

/**
 * A session's body started again after the process running it was lost (a crash, a takeover):
 * its `start`-th start, on `worker`; `previous` is the worker of the start before.
 */
export const SessionResumedSchema = z.object({
  type: z.literal('session.resumed'),
  sessionId: SessionIdSchema,
  path: z.array(SessionIdSchema),
  at: z.number(),
  worker: z.string().min(1),
  unit: z.string().min(1),
  start: z.number().int().min(2),
  previous: z.string().nullable(),
});
/** See {@link SessionResumedSchema}. */
export type SessionResumedEvent = z.infer<typeof SessionResumedSchema>;

/** A session event with where it happened, or a resume: what a tree spread over workers emits. */
export type PlacedEvent = (SessionEvent & Placement) | SessionResumedEvent;

/**
 * Reads one placed event (a row of a durable run's event log, a saved log line), or null when
 * it is none: a session event keeps its `worker` and `unit`.
 *
 * @example
 * parsePlacedEvent({ type: 'session.cancelled', sessionId: 'a.1', path: ['a.1'], at: 1, reason: 'x', worker: 'w1' })?.worker; // 'w1'
 */
export function parsePlacedEvent(raw: unknown): PlacedEvent | null {
  const type = (raw as { type?: unknown } | null)?.type;
  if (type === 'session.resumed') {
    const resumed = SessionResumedSchema.safeParse(raw);
    return resumed.success ? resumed.data : null;
  }
  const event = SessionEventSchema.safeParse(raw);
  if (!event.success) return null;
  const placement = PlacementSchema.safeParse(raw);
  return placement.success ? { ...event.data, ...placement.data } : event.data;
}
