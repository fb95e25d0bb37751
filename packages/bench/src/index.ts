/**
 * `@cohort/bench`: the benchmarks, Cohort against the alternatives and its peers, side by side
 * in one run. Run them with `./pnpmw bench` (or `--quick`); see docs/performance.md.
 */
export { runBench, scenarios, describeMachine } from './runBench.ts';
export type { BenchMachine, BenchResults } from './runBench.ts';
export type { BenchMode, BenchOptions, BenchRow, Figure, Scenario, ScenarioReport, Target } from './Scenario.ts';
export { formatPeers, formatPeersMarkdown } from './peers/formatPeers.ts';
export type { PeerCell, PeerLine, PeerMemory, PeerTable } from './peers/PeerTable.ts';
export { PEER_KEYS } from './peers/PeerSystem.ts';
export type { PeerKey, PeerRun, PeerSystem } from './peers/PeerSystem.ts';
export { expectedSurvivors, flatWorkload, treeWorkload, verify } from './peers/Workload.ts';
export type { Insert, Verdict, Workload } from './peers/Workload.ts';
export { byMode } from './Scenario.ts';
export { formatTable, formatMarkdown } from './formatTable.ts';
export { interleave, median, collectGarbage, RssSampler } from './measure.ts';
export { measureSkillbookBatch, mixedBatch } from './skillbookBatch.ts';
export { buildBook } from './books.ts';
export type { SkillbookBatchCost, SkillbookBatchOptions } from './skillbookBatch.ts';
