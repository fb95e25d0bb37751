import { z } from 'zod';
import { ConflictSchema, ErrorInfoSchema, ModelCallSchema, SessionFailureSchema, ToolCallSchema } from '@cohort/runtime';
import { AppliedOpSchema } from '@cohort/skillbook';
import { StoreNoticeSchema } from '@cohort/store';

/**
 * A session's lifecycle, as its machine names it: `running` (the body runs), `draining` (the
 * body returned, children are still live), `committing` (the commit is with the parent),
 * then `committed` or `failed`.
 */
export const SessionStatusSchema = z.enum(['running', 'draining', 'committing', 'committed', 'failed']);
/** See {@link SessionStatusSchema}. */
export type SessionStatus = z.infer<typeof SessionStatusSchema>;

/** One entered machine state and when (recording clock ms). */
export const StateChangeSchema = z.object({ state: z.string(), at: z.number() });

/** Tokens and requests a session was charged. */
export const ChargedSchema = z.object({ tokens: z.number(), requests: z.number() });

/** A block of a session's own ops that reached the book, and the book revision it landed at. */
export const LandedEntrySchema = z.object({ revision: z.number().int(), ops: z.array(AppliedOpSchema) });

/** A model call of a session's agent loop, and when it ended (recording clock ms). */
export const ModelCallRecordSchema = ModelCallSchema.extend({ at: z.number() });
/** See {@link ModelCallRecordSchema}. */
export type ModelCallRecord = z.infer<typeof ModelCallRecordSchema>;

/** A tool run (a Skillbook tool, `recurse`, the caller's own), and when it ended. */
export const ToolCallRecordSchema = ToolCallSchema.extend({ at: z.number() });
/** See {@link ToolCallRecordSchema}. */
export type ToolCallRecord = z.infer<typeof ToolCallRecordSchema>;

/** A session's body started again: when, on which worker, its how-many-th start, and the worker before. */
export const ResumeSchema = z.object({ at: z.number(), worker: z.string(), start: z.number().int(), previous: z.string().nullable() });

/** Everything recorded about one session. */
export const SessionRecordSchema = z.object({
  id: z.string(),
  parentId: z.string().nullable(),
  name: z.string().optional(),
  path: z.array(z.string()),
  depth: z.number().int(),
  attempt: z.number().int(),
  status: SessionStatusSchema,
  spawnedAt: z.number(),
  /** When it settled (committed or failed); null while live. */
  endedAt: z.number().nullable(),
  /** Machine states in the order entered (from inspection when given, else from events). */
  states: z.array(StateChangeSchema),
  /** Its commit as sent to its parent: op count (own and merged descendants') and base revision. */
  commit: z.object({ at: z.number(), ops: z.number().int(), baseRevision: z.number().int() }).nullable(),
  /** Where its commit merged: `into` is the parent session's id, or `root` for the book. */
  merge: z
    .object({ at: z.number(), into: z.string(), revision: z.number().int(), ops: z.number().int(), dropped: z.array(ConflictSchema) })
    .nullable(),
  rejection: z.object({ at: z.number(), into: z.string(), conflicts: z.array(ConflictSchema) }).nullable(),
  failure: SessionFailureSchema.nullable(),
  /** The first ops its failure dropped (its own and its descendants' merged ones); `failure.discarded.ops` counts them all. */
  discardedOps: z.array(AppliedOpSchema).default([]),
  /** Its own ops that are in the book, in audit order. */
  landed: z.array(LandedEntrySchema),
  /** Null when the runtime does not report what a session was charged. */
  charged: ChargedSchema.nullable(),
  /** Its model calls in order (what was kept of them: see the recording's `content`). */
  modelCalls: z.array(ModelCallRecordSchema).default([]),
  /** Its tool runs in order; a model call's `tool-call` part and its run share a `toolCallId`. */
  toolCalls: z.array(ToolCallRecordSchema).default([]),
  /** The worker process that ran it (a durable tree's events name it; after a resume, the last one); null in process. */
  worker: z.string().nullable().default(null),
  /** Each time its body started again on a worker after the one running it was lost (a crash, a takeover). */
  resumes: z.array(ResumeSchema).default([]),
});
/** See {@link SessionRecordSchema}. */
export type SessionRecord = z.infer<typeof SessionRecordSchema>;

/** A skill as the report shows it. */
export const SkillViewSchema = z.object({
  id: z.string(),
  section: z.string(),
  issue: z.string(),
  insight: z.string().optional(),
  keywords: z.array(z.string()),
  active: z.boolean(),
  helpful: z.number(),
  harmful: z.number(),
  neutral: z.number(),
});
/** See {@link SkillViewSchema}. */
export type SkillView = z.infer<typeof SkillViewSchema>;

/** The book before and after a run, as a diff of skills. Lists hold at most `limit` skills; counts are exact. */
export const BookDiffSchema = z.object({
  before: z.object({ revision: z.number().int(), skills: z.number().int() }),
  after: z.object({ revision: z.number().int(), skills: z.number().int() }),
  added: z.array(SkillViewSchema),
  removed: z.array(SkillViewSchema),
  changed: z.array(z.object({ before: SkillViewSchema, after: SkillViewSchema })),
  counts: z.object({ added: z.number().int(), removed: z.number().int(), changed: z.number().int(), unchanged: z.number().int() }),
});
/** See {@link BookDiffSchema}. */
export type BookDiff = z.infer<typeof BookDiffSchema>;

/** A store notice and when the recorder saw it (recording clock; the notice's `at` is the store's). */
export const NoticeRecordSchema = z.object({ seenAt: z.number(), notice: StoreNoticeSchema });
/** See {@link NoticeRecordSchema}. */
export type NoticeRecord = z.infer<typeof NoticeRecordSchema>;

/** Other moments worth a mark on the timeline: back-pressure at the root, runtime defects. */
export const MarkSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('backpressure'), at: z.number(), sessionId: z.string(), queued: z.number().int() }),
  z.object({ type: z.literal('defect'), at: z.number(), error: ErrorInfoSchema }),
]);
/** See {@link MarkSchema}. */
export type Mark = z.infer<typeof MarkSchema>;

/** The root supervisor as the inspector showed it last. */
export const SupervisorViewSchema = z.object({
  actorId: z.string(),
  state: z.string(),
  inFlight: z.number().int(),
  waiting: z.number().int(),
});
/** See {@link SupervisorViewSchema}. */
export type SupervisorView = z.infer<typeof SupervisorViewSchema>;

/** One runtime's run: its sessions in spawn order, notices, marks and the book's diff. */
export const RunRecordSchema = z.object({
  id: z.string(),
  label: z.string(),
  startedAt: z.number(),
  /** Null while the run is still being recorded. */
  endedAt: z.number().nullable(),
  sessions: z.array(SessionRecordSchema),
  notices: z.array(NoticeRecordSchema),
  marks: z.array(MarkSchema),
  /** Null when no book was recorded (a recording made from events alone). */
  book: BookDiffSchema.nullable(),
  supervisor: SupervisorViewSchema.nullable(),
});
/** See {@link RunRecordSchema}. */
export type RunRecord = z.infer<typeof RunRecordSchema>;

/** The recording format's name and version, checked when a recording is read back. */
export const RECORDING_FORMAT = 'cohort.run-recording' as const;

/**
 * A recording: serialisable JSON holding one or more runs (one per runtime). It is what a run
 * report embeds and what the live view streams.
 */
export const RecordingSchema = z.object({
  format: z.literal(RECORDING_FORMAT),
  version: z.literal(1),
  title: z.string(),
  /** What was kept of model and tool calls: everything (cut to a size), none of their content, or what a redact function kept. */
  content: z.enum(['on', 'off', 'redacted']).default('on'),
  runs: z.array(RunRecordSchema),
});
/** See {@link RecordingSchema}. */
export type Recording = z.infer<typeof RecordingSchema>;

/**
 * Reads a recording from JSON text (a file written with `JSON.stringify(recording)`), or says
 * exactly which field is wrong.
 *
 * @example
 * const result = parseRecording('{"format":"cohort.run-recording"}');
 * result.ok; // false
 */
export function parseRecording(text: string): { ok: true; recording: Recording } | { ok: false; message: string } {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (err) {
    return { ok: false, message: `not JSON: ${err instanceof Error ? err.message : String(err)}` };
  }
  const parsed = RecordingSchema.safeParse(raw);
  if (parsed.success) return { ok: true, recording: parsed.data };
  const issues = parsed.error.issues.slice(0, 5).map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`);
  return { ok: false, message: `not a Cohort run recording: ${issues.join('; ')}` };
}
