/**
 * `@cohort/store/testing`: the Store conformance suite every adapter must pass, and the
 * helpers its tests (and the simulation's) use to build commits on virtual time.
 */
export { describeStoreConformance } from './describeStoreConformance.ts';
export type { StoreFactory, StoreHarness } from './describeStoreConformance.ts';
export { PROTOTYPE_IDS, leaseAllocator } from './conformance/idCases.ts';
export { readHistory } from './conformance/historyCases.ts';
export { ManualClock, addOp, makeCommit, replayAll } from './commitFixtures.ts';
export type { MadeCommit, MakeCommitOptions, RawOp } from './commitFixtures.ts';
export { seededRandom } from '../internal/disk/SimDisk.ts';
