/**
 * `@cohort/durable/internal`: the durable tree logic without DBOS, for the simulation that
 * drives it on virtual time. A caller brings what a worker has: a `UnitHost` with records of
 * its own (`Records`), a Skillbook store and a `runChild` that runs or returns a child unit by
 * its recorded result (DBOS's part on a worker). Not a public API: it changes with the package.
 */
export { runRoot, appendOnce } from './runRoot.ts';
export type { RootSpec } from './runRoot.ts';
export { runUnit, unitRuntimeId } from './UnitRun.ts';
export type { UnitHost } from './UnitRun.ts';
export type { Records } from './Records.ts';
export { BookAt } from './BookAt.ts';
export { Bodies } from '../Bodies.ts';
export type { RegisteredBody } from '../Bodies.ts';
export type { UnitResult, UnitSpec } from '../UnitSpec.ts';
