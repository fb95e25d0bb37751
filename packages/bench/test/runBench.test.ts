import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeMachine, formatMarkdown, formatPeers, formatPeersMarkdown, formatTable, runBench, scenarios } from '../src/index.ts';
import type { BenchResults } from '../src/index.ts';
import { bundlePeerEntry } from './utils/bundlePeerEntry.ts';

let cleanUp: () => void = () => undefined;
beforeAll(async () => {
  cleanUp = await bundlePeerEntry();
});
afterAll(() => cleanUp());

// The first test to ask for the smoke run waits for all of it: on a loaded two-core machine it
// has taken over two minutes
const SMOKE_TIMEOUT_MS = 300_000;

// Smoke mode: tiny sizes, one repetition. This proves the harness runs every scenario and
// reports well-formed rows; it asserts nothing about speed (timings belong to `./pnpmw bench`).
describe('bench - the harness', () => {
  let run: Promise<BenchResults> | undefined;
  // the resident set before the run, in MB: the run's peak cannot be below it
  let rssBeforeMb = 0;
  const smokeRun = (): Promise<BenchResults> => {
    if (!run) {
      rssBeforeMb = process.memoryUsage().rss / 1e6;
      run = runBench({ mode: 'smoke', log: () => undefined });
    }
    return run;
  };

  it(
    'runs every scenario in smoke mode and reports a row per target, well formed',
    async () => {
      const results = await smokeRun();
      expect(results.format).toBe('cohort-bench/1');
      expect(new Set(results.rows.map((r) => /^\d+/.exec(r.id)?.[0]))).toEqual(new Set(scenarios.map((s) => s.id)));
      for (const row of results.rows) {
        expect(Number.isFinite(row.cohort.value)).toBe(true);
        if (row.baseline) expect(Number.isFinite(row.baseline.value)).toBe(true);
        // every system drops its crashed children's writes, so every row is ranked; a ratio that
        // is not a number would read as a missed target rather than as a broken row
        expect(row.unranked).toBeUndefined();
        expect(Number.isFinite(row.ratio)).toBe(true);
        expect(row.met === null).toBe(row.target.kind === 'info');
      }
      expect(results.rows.map((r) => r.id)).toEqual(
        expect.arrayContaining([
          '1a',
          '1b',
          '2a',
          '2b',
          '2c',
          '2d',
          '2e',
          '2f',
          '2g',
          '3b',
          '4',
          '5',
          '6',
          '7a',
          '7d',
          '7e',
          '7f',
          '7g',
          '7h',
          '7i',
          '8a',
          '8b',
          '8c',
          '10a',
          '10b',
          '10c',
          '10d',
        ]),
      );
      const table = formatTable(results.rows);
      expect(table.split('\n')).toHaveLength(results.rows.length + 2);
      expect(formatMarkdown(results.rows)).toContain('| 3b |');
      // the peak is this process's, in MB: at least what it held before the run, at most its peak so far
      expect(results.peakRssMb).toBeGreaterThanOrEqual(rssBeforeMb);
      expect(results.peakRssMb).toBeLessThanOrEqual((process.resourceUsage().maxRSS * 1024) / 1e6);
      // the results name the machine that ran them
      expect(results.machine).toEqual({ ...describeMachine(), loadAverage: expect.any(Number) });
    },
    SMOKE_TIMEOUT_MS,
  );

  it(
    'compares Cohort with its peers on every workload, each checked, with a memory figure from each own process',
    async () => {
      const peers = (await smokeRun()).peers;
      expect(peers?.lines.map((l) => l.key)).toEqual(['cohort', 'langgraph', 'effect', 'floor']);
      for (const line of peers?.lines ?? []) {
        for (const w of peers?.workloads ?? []) {
          const cell = line.cells[w.id];
          expect(cell?.capped).toBe(false);
          expect(cell?.verdict).toMatchObject({ ok: true, crashedKept: 0 });
          expect(cell?.time.value).toBeGreaterThan(0);
        }
        expect(line.memory.verdict?.ok).toBe(true);
        expect(line.memory.increaseMb).toEqual(expect.any(Number));
      }
      if (!peers) return;
      const text = formatPeers(peers);
      expect(text.split('\n')).toHaveLength(2 + 4);
      expect(text).toContain('dropped');
      expect(formatPeersMarkdown(peers).split('\n')[0]).toContain('| system |');
    },
    SMOKE_TIMEOUT_MS,
  );

  it(
    'never loads a peer into the process that measures Cohort',
    async () => {
      await smokeRun();
      // LangChain keeps its AsyncLocalStorage here once loaded; running it switches on the
      // promise hooks that slow every later await in the process, Cohort's and the floor's
      expect((globalThis as Record<symbol, unknown>)[Symbol.for('ls:tracing_async_local_storage')]).toBeUndefined();
    },
    SMOKE_TIMEOUT_MS,
  );
});
