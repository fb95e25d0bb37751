export { createRuntime } from './createRuntime.ts';
export { traceCarrier, withTraceCarrier } from './traceContext.ts';
export type { Runtime, RuntimeOptions } from './createRuntime.ts';
export { isRuntimeError } from './errors.ts';
export type { RuntimeError, RuntimeErrorCode } from './errors.ts';
export type {
  Session,
  SessionBody,
  SpawnOptions,
  RetryPolicy,
  SessionBatchResult,
  SessionOperationResult,
  ChargeResult,
} from './Session.ts';
export type { SessionOutcome } from './SessionOutcome.ts';
export { REFUSED_CALLS_KEPT } from './RefusedCalls.ts';
export type { RefusedCall, RefusedCalls } from './RefusedCalls.ts';
export { SessionIdSchema } from './SessionId.ts';
export type { SessionId } from './SessionId.ts';
export {
  SessionFailureSchema,
  FailureKindSchema,
  FailureCategorySchema,
  ConflictSchema,
  isInterruption,
  isDefect,
  isError,
} from './SessionFailure.ts';
export type { SessionFailure, FailureKind, FailureCategory } from './SessionFailure.ts';
export type { FailureSeed } from './FailureSeed.ts';
export { ErrorInfoSchema, toErrorInfo } from './ErrorInfo.ts';
export type { ErrorInfo } from './ErrorInfo.ts';
export { SessionEventSchema, DISCARDED_OPS_KEPT } from './RuntimeEvent.ts';
export { SessionCallSchema, ModelCallSchema, ToolCallSchema, CallMessageSchema, CallPartSchema } from './SessionCall.ts';
export type { SessionCall, ModelCall, ToolCall, CallMessage, CallPart } from './SessionCall.ts';
export type { SessionEvent, RuntimeEvent } from './RuntimeEvent.ts';
export { PlacementSchema, SessionResumedSchema, parsePlacedEvent } from './PlacedEvent.ts';
export type { Placement, PlacedEvent, SessionResumedEvent } from './PlacedEvent.ts';
export type { AuditEntry } from './AuditEntry.ts';
export type { Commit } from './Commit.ts';
export type { ConflictPolicy, ConflictResolver } from './ConflictPolicy.ts';
export { mergeCommit, describeConflict } from './mergeCommit.ts';
export type { MergeResult } from './mergeCommit.ts';
export { Draft } from './Draft.ts';
export { draftView, adoptCommit, failSession } from './sessionDraft.ts';
export type { DraftView, ForeignCommit, AdoptResult } from './sessionDraft.ts';
export { BudgetAccount, BudgetSpecSchema } from './Budget.ts';
export type { BudgetSpec, Usage } from './Budget.ts';
export { defaultLimits, LimitsSchema, operationLimits } from './Limits.ts';
export type { Limits } from './Limits.ts';
export { systemClock } from './Clock.ts';
export type { Clock } from './Clock.ts';
export { SimulatedClock } from './SimulatedClock.ts';
export { sessionMachine } from './sessionMachine.ts';
export type {
  SessionContext,
  SessionInput,
  SessionMachineEvent,
  SessionEmitted,
  SessionAnswer,
  MergedEvent,
  RejectedEvent,
  MergedInfo,
  RetryRule,
} from './sessionMachine.ts';
export { supervisorMachine } from './supervisorMachine.ts';
export type { SupervisorContext, SupervisorInput, SupervisorEvent, SupervisorEmitted } from './supervisorMachine.ts';
export { createSkillTools, callSkillTool, toolDefinitions, toolJsonSchemas } from './tools.ts';
export type {
  SkillTools,
  SkillToolArgs,
  SkillToolName,
  ToolResult,
  ToolError,
  SkillIdResult,
  TagResult,
  ReadResult,
  ToolSchemaOptions,
} from './tools.ts';
export { AddSkillArgs, UpdateSkillArgs, RemoveSkillArgs, TagSkillArgs, ReadSkillArgs, toolSchemas } from './toolSchemas.ts';
export type { ToolSchemas } from './toolSchemas.ts';
export { toStrictJsonSchema, toJsonSchema, parseToolArguments, plainArguments } from './strictToolSchema.ts';
export { createRecurseTool, RecurseArgs } from './recurse.ts';
export type { RecurseTool, RecurseResult, RecurseInput, RecurseTask, ChildRunner } from './recurse.ts';
