import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain ES module script, without declarations
import { buildPageAssets, generatedFile } from '../scripts/pageAssets.mjs';

describe('page assets', () => {
  it('pageAssets.generated.ts - is the current bundle of page/ (run `./pnpmw --filter @cohort/report build:page` after changing the page)', async () => {
    const built = (await buildPageAssets()) as string;
    expect(readFileSync(generatedFile as string, 'utf8') === built).toBe(true);
  });
});
