/**
 * zod schemas for the Skillbook's public values, for parsing them where they cross a boundary
 * (commits arriving at a supervisor, journals read from disk, failure values).
 */
import { z } from 'zod';

/** An operation type. */
export const OpTypeSchema = z.enum(['ADD', 'UPDATE', 'TAG', 'REMOVE']);

/** A canonical insight source (`InsightSource`). */
export const InsightSourceSchema = z.object({
  trace_uid: z.string(),
  source_system: z.string(),
  trace_id: z.string(),
  display_name: z.string().optional(),
  relation: z.string().optional(),
  sample_question: z.string().optional(),
  epoch: z.number().int().optional(),
  operation_type: z.string().optional(),
  error_identification: z.string().optional(),
  learning_text: z.string().optional(),
});

/** An insight source's keys, in ACE's order (the order documents write them in). */
export const INSIGHT_SOURCE_KEYS = Object.keys(InsightSourceSchema.shape) as readonly (keyof z.infer<typeof InsightSourceSchema>)[];

/** Its text keys: every key but `epoch`. */
export const INSIGHT_SOURCE_TEXT_KEYS = INSIGHT_SOURCE_KEYS.filter((key): key is Exclude<typeof key, 'epoch'> => key !== 'epoch');

/** ACE timestamps: `YYYY-MM-DDTHH:MM:SS[.ffffff]+00:00` (any offset accepted). */
export const ACE_TIMESTAMP_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d{1,6})?(?:[+-]\d{2}:\d{2}|Z)$/;
const AceTimestampSchema = z.string().regex(ACE_TIMESTAMP_PATTERN);

/**
 * An applied operation (`AppliedOp`): what `applyBatch` reports and `replay` accepts.
 *
 * @example
 * const ops = z.array(AppliedOpSchema).parse(JSON.parse(journalLine));
 */
export const AppliedOpSchema = z.object({
  type: OpTypeSchema,
  section: z.string(),
  skill_id: z.string().min(1),
  issue: z.string().optional(),
  keywords: z.array(z.string()).optional(),
  insight: z.string().optional(),
  metadata: z.record(z.string(), z.number()).optional(),
  reason: z.string().optional(),
  insight_source: z.array(InsightSourceSchema).optional(),
  at: AceTimestampSchema,
});

/** A skipped operation (`SkippedOp`). */
export const SkippedOpSchema = z.object({
  opIndex: z.number().int().nonnegative(),
  type: OpTypeSchema,
  skillId: z.string().nullable(),
  /** `no_skill`: no skill has the id (or the op names none); `no_change`: the op would change nothing (a REMOVE of a removed skill). */
  code: z.enum(['no_skill', 'no_change']),
  reason: z.string(),
});

/** A refusal's stable code. */
export const SkillbookErrorCodeSchema = z.enum([
  'invalid_json',
  'invalid_batch',
  'invalid_operation',
  'unknown_operation_type',
  'duplicate_skill_id',
  'invalid_document',
  'unsupported_schema_version',
  'limit_exceeded',
  'ids_unavailable',
]);

/** A structured refusal (`SkillbookErrorInfo`). */
export const SkillbookErrorInfoSchema = z.object({
  code: SkillbookErrorCodeSchema,
  message: z.string(),
  opIndex: z.number().int().nonnegative().optional(),
  path: z.string().optional(),
});

/** A conflict of a commit's op (`Conflict`). */
export const ConflictSchema = z.object({
  opIndex: z.number().int().nonnegative(),
  type: OpTypeSchema,
  skillId: z.string(),
  reason: z.enum(['content_changed', 'removed', 'id_exists']),
  revision: z.number().int(),
});
