/**
 * `@cohort/bench`: the benchmarks of issue 6, Cohort against the alternatives, side by side in
 * one process. Run them with `./pnpmw bench` (or `--quick`); see docs/performance.md.
 */
export { runBench, scenarios, describeMachine } from './runBench.ts';
export type { BenchMachine, BenchResults } from './runBench.ts';
export type { BenchMode, BenchOptions, BenchRow, Figure, Scenario, Target } from './Scenario.ts';
export { byMode } from './Scenario.ts';
export { formatTable, formatMarkdown } from './formatTable.ts';
export { interleave, median, collectGarbage, RssSampler } from './measure.ts';
export { measureSkillbookBatch, mixedBatch } from './skillbookBatch.ts';
export { buildBook } from './books.ts';
export type { SkillbookBatchCost, SkillbookBatchOptions } from './skillbookBatch.ts';
