import { configDefaults, defineConfig } from 'vitest/config';

/**
 * Two projects. `quick` (`./pnpmw test`) is every test but the long ones below; `long`
 * (`./pnpmw test:long`) runs those, one file at a time, as their timing asks. CI runs both.
 */
const LONG = [
  // Chromium drives the run report and the live view
  '**/*.browser.test.ts',
  // kill rounds: processes killed at random moments, again and again
  'packages/store/test/FileStore.kill.test.ts',
  'packages/store-postgres/test/PostgresStore.processes.test.ts',
  'packages/store-postgres/test/PostgresStore.restart.test.ts',
  'test/killRuntime.test.ts',
  // durable trees: DBOS launched against PostgreSQL, worker processes started and SIGKILLed
  'packages/durable/test/*.test.ts',
  'packages/cli/test/runs.test.ts',
  // soaks: writers sharing a file for seconds, hundreds of simulated session trees, runaway trees of 20,000 sessions
  'packages/runtime/test/runaway.test.ts',
  // every documentation example as a process of its own, as a reader runs it
  'test/docsExamples.test.ts',
  'test/aceSharing.test.ts',
  'packages/sim/test/seeds.test.ts',
  'packages/sim/test/mutations.test.ts',
  // `cohort mcp` as a process of its own, with MCP clients over stdio and HTTP (one killed mid-task)
  'packages/cli/test/mcp.process.test.ts',
  // the benchmark harness end to end, every scenario and peer in processes of their own
  'packages/bench/test/runBench.test.ts',
  'packages/bench/test/peerSystems.test.ts',
];

const ALL = ['packages/*/test/**/*.test.ts', 'test/**/*.test.ts'];
// the install test builds and packs every package: its own step (./pnpmw test:install)
const EXCLUDE = [...configDefaults.exclude, 'test/install/**'];

export default defineConfig({
  test: {
    reporters: ['default', './test/utils/summaryReporter.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    projects: [
      { extends: true, test: { name: 'quick', include: ALL, exclude: [...EXCLUDE, ...LONG] } },
      { extends: true, test: { name: 'long', include: LONG, exclude: EXCLUDE } },
    ],
  },
});
