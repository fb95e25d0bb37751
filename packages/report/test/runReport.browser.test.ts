import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { writeRunReport } from '../src/index.ts';
import type { Recording } from '../src/index.ts';
import { artifacts, describeInBrowser, openBrowser } from './utils/chromium.ts';
import { DEMO, demoRun } from './utils/demoRun.ts';

describeInBrowser('run report in headless Chromium', () => {
  let browser: Awaited<ReturnType<typeof openBrowser>>;
  let page: Page;
  let recording: Recording;
  const dir = mkdtempSync(join(tmpdir(), 'cohort-report-'));
  const requests: string[] = [];

  beforeAll(async () => {
    ({ recording } = await demoRun());
    const file = join(dir, 'demo.html');
    await writeRunReport(recording, file);
    browser = await openBrowser();
    page = browser.page;
    page.on('request', (req) => requests.push(req.url()));
    await page.goto(pathToFileURL(file).href);
    await page.waitForSelector('#app[data-rendered="true"]');
  });

  afterAll(async () => {
    await browser?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('report - opens from file:// and loads nothing else', () => {
    expect(requests.filter((url) => !url.startsWith('file://'))).toEqual([]);
  });

  it('report - one session element per session, each with its status', async () => {
    const run = recording.runs[0]!;
    expect(run.sessions).toHaveLength(DEMO.sessions);
    const elements = page.locator('[data-session-id]');
    await expect.poll(() => elements.count()).toBe(DEMO.sessions);
    for (const session of run.sessions) {
      await expect.poll(() => page.getAttribute(`[data-session-id="${session.id}"]`, 'data-status')).toBe(session.status);
    }
    expect(await page.locator('[data-status="committed"]').count()).toBe(DEMO.committed.length);
    expect(await page.locator('[data-status="failed"]').count()).toBe(2);
  });

  it('report - clicking the crashed child shows crashed, its message and its cause chain', async () => {
    const crasher = recording.runs[0]!.sessions.find((s) => s.name === DEMO.crashed)!;
    expect(await page.locator('[data-testid="session-details"]').count()).toBe(0);
    await page.click(`[data-session-id="${crasher.id}"]`);
    const details = page.locator('[data-testid="session-details"]');
    await details.waitFor();
    const text = await details.innerText();
    expect(text).toContain('crashed');
    expect(text).toContain(DEMO.crashMessage);
    expect(await details.locator('[data-testid="cause-chain"] li').allInnerTexts()).toEqual([
      expect.stringContaining(DEMO.crashMessage),
      expect.stringContaining('sandbox exited with code 137'),
      expect.stringContaining('out of memory'),
    ]);
    expect(text).toMatch(/1 op, 0 descendants/);
    expect(text).toMatch(/budget charged\s+50 tokens, 2 requests/);
    await page.screenshot({ path: join(artifacts(), 'run-report-demo.png'), fullPage: true });
  });

  it('report - the conflicted child names the conflicting op and skill', async () => {
    const editor = recording.runs[0]!.sessions.find((s) => s.name === DEMO.conflicted)!;
    await page.click(`[data-session-id="${editor.id}"]`);
    const details = page.locator(`[data-testid="session-details"][data-session="${editor.id}"]`);
    await details.waitFor();
    const text = await details.innerText();
    expect(text).toContain('conflict');
    expect(text).toContain('context-00001');
    expect(text).toContain('removed');
  });

  it('report - the timeline has one bar per session', async () => {
    expect(await page.locator('svg.timeline g.bar').count()).toBe(DEMO.sessions);
  });

  it('report - collapsing the planner hides its descendants, expanding shows them again', async () => {
    const planner = recording.runs[0]!.sessions.find((s) => s.name === 'planner')!;
    await page.click(`[data-session-id="${planner.id}"] .twisty`);
    await expect.poll(() => page.locator('[data-session-id]').count()).toBe(1);
    await page.click(`[data-session-id="${planner.id}"] .twisty`);
    await expect.poll(() => page.locator('[data-session-id]').count()).toBe(DEMO.sessions);
  });

  it('report - the book diff shows the added skills and the removed seed', async () => {
    const text = await page.locator('[data-testid="book-diff"]').innerText();
    expect(text).toContain('paginate large result sets');
    expect(text).toContain('cache schema lookups');
    expect(text).not.toContain('must never reach the book');
    expect(text).toMatch(/Removed \(1\)/);
  });
});
