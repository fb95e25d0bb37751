export { createRuntime } from './createRuntime.ts';
export type { Runtime, RuntimeOptions } from './createRuntime.ts';
export type { RuntimeMutation } from './RuntimeMutation.ts';
export type { Session, SessionBody, SpawnOptions, RetryPolicy, SessionBatchResult, ChargeResult } from './Session.ts';
export type { SessionOutcome } from './SessionOutcome.ts';
export { SessionFailureSchema, FailureKindSchema, ErrorInfoSchema, ConflictSchema, toErrorInfo } from './SessionFailure.ts';
export type { SessionFailure, FailureKind, ErrorInfo } from './SessionFailure.ts';
export { SessionEventSchema } from './RuntimeEvent.ts';
export type { SessionEvent, RuntimeEvent } from './RuntimeEvent.ts';
export type { AuditEntry } from './AuditEntry.ts';
export type { Commit } from './Commit.ts';
export type { ConflictPolicy, ConflictResolver } from './ConflictPolicy.ts';
export { mergeCommit, describeConflict } from './mergeCommit.ts';
export type { MergeResult } from './mergeCommit.ts';
export { Draft } from './Draft.ts';
export { BudgetAccount, BudgetSpecSchema } from './Budget.ts';
export type { BudgetSpec, Usage } from './Budget.ts';
export { defaultLimits, LimitsSchema } from './Limits.ts';
export type { Limits } from './Limits.ts';
export { systemClock } from './Clock.ts';
export type { Clock } from './Clock.ts';
export { SimulatedClock } from './SimulatedClock.ts';
export { sessionMachine } from './sessionMachine.ts';
export type { SessionContext, SessionInput, SessionMachineEvent, FailureSeed } from './sessionMachine.ts';
export { supervisorMachine } from './supervisorMachine.ts';
export type { SupervisorContext, SupervisorInput, SupervisorEvent } from './supervisorMachine.ts';
export {
  createSkillTools, callSkillTool, toolDefinitions, toolJsonSchemas,
  AddSkillArgs, UpdateSkillArgs, RemoveSkillArgs, TagSkillArgs, ReadSkillArgs,
} from './tools.ts';
export type { SkillTools, SkillToolArgs, SkillToolName, ToolResult, ToolError, SkillIdResult, TagResult, ReadResult } from './tools.ts';
export { toStrictJsonSchema, parseToolArguments } from './strictToolSchema.ts';
export { createRecurseTool, RecurseArgs } from './recurse.ts';
export type { RecurseTool, RecurseResult, RecurseInput, RecurseTask, ChildRunner } from './recurse.ts';
