/**
 * Prints the Skillbook batch cost on books of 1,000 and 100,000 skills (see
 * `measureSkillbookBatch`); exits 1 when the larger is over 3× the smaller.
 *
 * Run: `./pnpmw exec tsx packages/bench/src/skillbookBatchMain.ts`
 */
import { measureSkillbookBatch } from './skillbookBatch.ts';

function main(): void {
  const results = measureSkillbookBatch();
  console.log(`Skillbook batch cost (10 ops: 4 ADD, 3 UPDATE, 2 TAG, 1 REMOVE), Node ${process.version}`);
  console.log('  skills     median      p90');
  for (const r of results) {
    console.log(`  ${String(r.size).padStart(7)}  ${r.medianMs.toFixed(3).padStart(7)} ms  ${r.p90Ms.toFixed(3).padStart(7)} ms`);
  }
  const first = results[0];
  const last = results[results.length - 1];
  if (first && last && first !== last) {
    const ratio = last.medianMs / first.medianMs;
    console.log(`  ratio ${ratio.toFixed(2)}× (${last.size} vs ${first.size}; required ≤ 3×)`);
    if (ratio > 3) process.exitCode = 1;
  }
}

main();
