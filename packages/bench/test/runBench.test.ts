import { describe, expect, it } from 'vitest';
import { formatMarkdown, formatTable, runBench, scenarios } from '../src/index.ts';

// Smoke mode: tiny sizes, one repetition. This proves the harness runs every scenario and
// reports well-formed rows; it asserts nothing about speed (timings belong to `./pnpmw bench`).
describe('bench - the harness', () => {
  it('runs every scenario of issue 6 in smoke mode and reports a row per target, well formed', async () => {
    const results = await runBench({ mode: 'smoke', log: () => undefined });
    expect(results.format).toBe('cohort-bench/1');
    expect(new Set(results.rows.map((r) => r.id.charAt(0)))).toEqual(new Set(scenarios.map((s) => s.id)));
    for (const row of results.rows) {
      expect(Number.isFinite(row.cohort.value)).toBe(true);
      if (row.baseline) expect(Number.isFinite(row.baseline.value)).toBe(true);
      // a ratio that is not a number would read as a missed target rather than as a broken row
      expect(Number.isFinite(row.ratio)).toBe(true);
      expect(row.met === null).toBe(row.target.kind === 'info');
    }
    expect(results.rows.map((r) => r.id)).toEqual(expect.arrayContaining(['1a', '1b', '2a', '2b', '2c', '2d', '2e', '3b', '4', '5', '6']));
    const table = formatTable(results.rows);
    expect(table.split('\n')).toHaveLength(results.rows.length + 2);
    expect(formatMarkdown(results.rows)).toContain('| 3b |');
    expect(results.peakRssMb).toBeGreaterThan(0);
  });
});
