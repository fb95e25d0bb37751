import { z } from 'zod';
import { AppliedOpSchema } from '@cohort/skillbook';
import type { StoreNotice } from '@cohort/store';
import { ErrorInfoSchema } from './ErrorInfo.ts';
import { SessionCallSchema } from './SessionCall.ts';
import { ConflictSchema, SessionFailureSchema } from './SessionFailure.ts';
import { SessionIdSchema } from './SessionId.ts';

const base = {
  sessionId: SessionIdSchema,
  path: z.array(SessionIdSchema),
  at: z.number(),
};

/**
 * What a session and its descendants were charged against their budgets (`s.charge`), final
 * when it settles. Carried by `session.merged` and `session.failed`; optional only so that
 * logs written before it was recorded still parse.
 */
const charged = z.object({ tokens: z.number(), requests: z.number() }).optional();

/** How many of a failed session's dropped ops its `session.failed` event names (`failure.discarded.ops` counts them all). */
export const DISCARDED_OPS_KEPT = 50;

/** The typed events of sessions and merges, as emitted on `rt.events$`. */
export const SessionEventSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('session.spawned'),
    ...base,
    parentId: SessionIdSchema.nullable(),
    name: z.string().optional(),
    depth: z.number().int(),
    attempt: z.number().int(),
  }),
  z.object({ type: z.literal('session.committed'), ...base, ops: z.number().int(), baseRevision: z.number().int() }),
  z.object({
    type: z.literal('session.merged'),
    ...base,
    into: z.string(),
    revision: z.number().int(),
    ops: z.number().int(),
    dropped: z.array(ConflictSchema),
    charged,
  }),
  z.object({ type: z.literal('session.rejected'), ...base, into: z.string(), conflicts: z.array(ConflictSchema) }),
  z.object({
    type: z.literal('session.failed'),
    ...base,
    failure: SessionFailureSchema,
    charged,
    /** The ops its failure dropped (its own and its descendants' merged ones), the first {@link DISCARDED_OPS_KEPT}. */
    discardedOps: z.array(AppliedOpSchema).optional(),
  }),
  z.object({ type: z.literal('session.cancelled'), ...base, reason: z.string() }),
  /** A model or tool call the session made (`s.record`); emitted only while someone listens. */
  z.object({ type: z.literal('session.call'), ...base, call: SessionCallSchema }),
  z.object({ type: z.literal('merge.backpressure'), ...base, queued: z.number().int() }),
  z.object({ type: z.literal('runtime.defect'), at: z.number(), error: ErrorInfoSchema }),
]);
/** See {@link SessionEventSchema}. */
export type SessionEvent = z.infer<typeof SessionEventSchema>;

/** Everything `rt.events$` emits: session events and the store's notices. */
export type RuntimeEvent = SessionEvent | StoreNotice;
