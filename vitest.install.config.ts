import { defineConfig } from 'vitest/config';

/** `./pnpmw test:install`: builds, packs and installs every package (needs the npm registry; about a minute). */
export default defineConfig({
  test: {
    include: ['test/install/**/*.test.ts'],
    reporters: ['default', './test/utils/summaryReporter.ts'],
    testTimeout: 120_000,
    hookTimeout: 600_000,
  },
});
