import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['packages/*/test/**/*.test.ts', 'test/**/*.test.ts'],
    // the install test builds and packs every package: its own step (./pnpmw test:install)
    exclude: [...configDefaults.exclude, 'test/install/**'],
    reporters: ['default', './test/utils/summaryReporter.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
