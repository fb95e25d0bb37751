/**
 * `@cohort/runtime/testing`: what tests of Cohort itself need and applications never should —
 * the runtime's deliberately broken variants, which the simulation's mutation tests run to
 * prove that its invariant checker can fail.
 */
export { createMutantRuntime } from './createMutantRuntime.ts';
export { RUNTIME_MUTATIONS } from './mutations.ts';
export type { RuntimeMutation } from './mutations.ts';
