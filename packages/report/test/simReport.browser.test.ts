import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { simulate } from '@cohort/sim';
import { recordEvents, writeRunReport } from '../src/index.ts';
import type { Recording } from '../src/index.ts';
import { describeInBrowser, openBrowser } from './utils/chromium.ts';

describeInBrowser("a simulation's report in headless Chromium", () => {
  let browser: Awaited<ReturnType<typeof openBrowser>>;
  let page: Page;
  let recording: Recording;
  const dir = mkdtempSync(join(tmpdir(), 'cohort-sim-report-'));

  beforeAll(async () => {
    recording = recordEvents((await simulate({ seed: 21 })).timeline, { title: 'seed 21' });
    const file = join(dir, 'sim.html');
    await writeRunReport(recording, file);
    browser = await openBrowser();
    page = browser.page;
    await page.goto(pathToFileURL(file).href);
    await page.waitForSelector('#app[data-rendered="true"]');
  });

  afterAll(async () => {
    await browser?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('sim report - a button per epoch; each shows its own sessions, bars, and store notices on the timeline', async () => {
    expect(await page.locator('nav.runs button').allInnerTexts()).toEqual(
      recording.runs.map((r) => `${r.label} · ${r.sessions.length} session${r.sessions.length === 1 ? '' : 's'}`),
    );
    for (const run of recording.runs) {
      await page.click(`nav.runs button[data-run="${run.id}"]`);
      await expect.poll(() => page.getAttribute(`nav.runs button[data-run="${run.id}"]`, 'aria-pressed')).toBe('true');
      expect(await page.locator('[data-session-id]').count()).toBe(run.sessions.length);
      expect(await page.locator('svg.timeline g.bar').count()).toBe(run.sessions.length);
      expect(await page.locator('svg.timeline g.notice').count()).toBe(run.notices.length);
      expect(await page.locator('[data-notice]').count()).toBe(run.notices.length);
      const failed = run.sessions.filter((s) => s.failure).map((s) => [s.id, s.failure!.kind]);
      const shown = await page
        .locator('[data-failure]')
        .evaluateAll((els) => els.map((el) => [el.getAttribute('data-session-id'), el.getAttribute('data-failure')]));
      expect(shown).toEqual(failed);
    }
    expect(recording.runs.some((r) => r.notices.length > 0)).toBe(true);
    expect(await page.locator('[data-testid="book-diff"]').innerText()).toContain('No book was recorded');
  });
});
