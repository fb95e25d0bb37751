/**
 * `@cohort/sim`: deterministic simulation of Cohort session trees. `simulate({ seed })`
 * generates a scenario from the seed (session trees, scripted tool calls and batches,
 * think-times, and faults), runs it on virtual time against the runtime (and a file store on
 * a simulated disk), checks twelve invariants against a reference model built from the
 * Skillbook alone, and returns a report that replays byte for byte. See docs/simulation.md.
 */
export { simulate, SIM_EPOCH_START } from './simulate.ts';
export { SimOptionsSchema, SimMutationSchema, resolveSimOptions } from './SimOptions.ts';
export type { SimOptions, ResolvedSimOptions, SimMutation } from './SimOptions.ts';
export { INVARIANTS, withoutStacks } from './SimReport.ts';
export type {
  SimReport,
  SimStats,
  InvariantResult,
  InvariantId,
  InvariantName,
  TimelineEntry,
  TimelineEvent,
  HarnessEvent,
} from './SimReport.ts';
export type { Scenario, SessionPlan, Step, OpPlan, TargetPlan, StorePlan, EpochPlan, RootPlan, PolicyName } from './Scenario.ts';
export type { DurablePlan, DurableCrash } from './durable/DurablePlan.ts';
export { generateScenario } from './generateScenario.ts';
export { createPrng } from './createPrng.ts';
export type { Prng } from './createPrng.ts';
export { formatTrace } from './formatTrace.ts';
export { SimTally } from './SimTally.ts';
export type { SimSummary, SimViolation } from './SimTally.ts';
export { AckBeforeSyncStore } from './stores/AckBeforeSyncStore.ts';
export { RecordingStore } from './stores/RecordingStore.ts';
export type { AppendRecord } from './stores/RecordingStore.ts';
