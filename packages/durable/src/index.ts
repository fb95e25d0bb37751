/**
 * `@cohort/durable`: Cohort session trees that survive a crash and spread over worker
 * processes, on DBOS Transact and PostgreSQL. A run's root session is a DBOS workflow,
 * idempotent by the run's id; a registered body spawned in it is a child workflow on a queue
 * that any worker serves, whose commit is merged into its parent's draft by the runtime's own
 * merge. See docs/durable.md.
 */
export { openDurable } from './openDurable.ts';
export type { Durable, DurableRunOptions } from './Durable.ts';
export type { DurableOptions } from './DurableOptions.ts';
export type { QueueConcurrency } from './QueueConcurrency.ts';
export type { RegisteredBody } from './Bodies.ts';
export { DurableError, isDurableError } from './DurableError.ts';
export type { DurableErrorCode } from './DurableError.ts';
export { jsonProblem } from './jsonProblem.ts';
export { recordStep } from './recordStep.ts';
export { UnitSpecSchema, UnitResultSchema } from './UnitSpec.ts';
export type { UnitSpec, UnitResult } from './UnitSpec.ts';
export { inspectRuns } from './inspectRuns.ts';
export type { DurableRuns, DurableRunSummary, DurableRunView, DurableUnitView, DurableWorkerView } from './inspectRuns.ts';
export { watchRun } from './watchRun.ts';
export type { WatchOptions } from './watchRun.ts';
