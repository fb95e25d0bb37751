/**
 * `@cohort/skillbook`: the immutable Skillbook value — ACE schema-v2 compatible operations,
 * documents, prompt and stats, plus the revision bookkeeping supervisors use to detect
 * conflicts. Pure: no I/O, no actors. See docs/skillbook.md.
 */
export { Skillbook } from './Skillbook.ts';
export type { BatchResult, LoadOptions, ParseResult } from './Skillbook.ts';
export type { DraftBatchResult, DraftOperationResult, SkillbookDraft } from './SkillbookDraft.ts';
export { SkillbookError } from './SkillbookError.ts';
export { isSkillbookDefect } from './errors.ts';
export type { SkillbookDefect, SkillbookDefectCode } from './errors.ts';
export { formatAceTimestamp, systemClock } from './formatAceTimestamp.ts';
export { createIdAllocator, formatSkillId, idSuffix } from './createIdAllocator.ts';
export type { IdAllocatorHandle } from './createIdAllocator.ts';
export { RawBatchSchema, RawInsightSourceSchema, RawOperationSchema, parseOperation } from './parseOperation.ts';
export { parseBatch } from './parseBatch.ts';
export { checkOperationLimits } from './operationLimits.ts';
export type { OperationLimits } from './operationLimits.ts';
export type { OperationFields, ParseOperationResult, ParsedOperation, RawBatch, RawOperation } from './parseOperation.ts';
export type { ParseBatchResult } from './parseBatch.ts';
export {
  AppliedOpSchema,
  ConflictSchema,
  InsightSourceSchema,
  OpTypeSchema,
  SkillbookErrorCodeSchema,
  SkillbookErrorInfoSchema,
  SkippedOpSchema,
} from './schemas.ts';
export type { AdoptedSkills, PlainSkill } from './internal/wholeBookEdits.ts';
export { normalizeKeyword, normalizeKeywords } from './normalize.ts';
export { describeLoneSurrogate, loneSurrogate, withoutLoneSurrogates } from './loneSurrogate.ts';
export type { LoneSurrogate } from './loneSurrogate.ts';
export type {
  AppliedOp,
  ApplyOptions,
  Clock,
  Conflict,
  ConflictReason,
  IdAllocator,
  InsightSource,
  OpType,
  Section,
  Skill,
  SkillId,
  SkillRevisions,
  SkillbookErrorCode,
  SkillbookErrorInfo,
  SkillbookStats,
  SkippedOp,
} from './types.ts';
