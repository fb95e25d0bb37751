import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import type { BrowserContext, Page } from 'playwright-core';
import { describe } from 'vitest';

/** Debian's Chromium (`apt-get install chromium`); .ci/run installs it when absent. */
export const CHROMIUM_PATH = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';

/** Flags for a headless Chromium that never reaches the network on its own. */
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
  '--disable-quic',
];

/** Where tests leave screenshots and figures (ignored by git). */
export const ARTIFACTS = join(import.meta.dirname, '..', '..', '..', '..', 'test-artifacts');

const inCi = process.env['CI'] === 'true' || process.env['CI'] === '1';
const available = existsSync(CHROMIUM_PATH);

/**
 * `describe` for browser tests. Without Chromium they are skipped locally, with a message
 * saying so; in CI a missing Chromium fails them instead (they must never be skipped there).
 */
export const describeInBrowser = describe.skipIf(!available && !inCi);
if (!available && !inCi) {
  console.warn(`[browser tests skipped] no Chromium at ${CHROMIUM_PATH}: apt-get install -y chromium (or set CHROMIUM_PATH)`);
}

/** A fresh headless Chromium (its own new user-data-dir) and one page; `close` removes everything. */
export async function openBrowser(): Promise<{ context: BrowserContext; page: Page; close(): Promise<void> }> {
  if (!available)
    throw new Error(`Chromium is required for the browser tests in CI, and ${CHROMIUM_PATH} is missing (.ci/run installs it)`);
  const profile = mkdtempSync(join(tmpdir(), 'cohort-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    args: CHROMIUM_ARGS,
    headless: true,
    viewport: { width: 1280, height: 900 },
  });
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    context,
    page,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** The artifacts directory, created. */
export function artifacts(): string {
  mkdirSync(ARTIFACTS, { recursive: true });
  return ARTIFACTS;
}
