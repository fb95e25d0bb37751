/**
 * A tree spread over workers, in the page: the live view fed placed events (as a durable run's
 * `durable.watch(id)` gives them) shows each session's worker in the tree and a resumed badge
 * where a session's body started again, with every start in its details; the run report of
 * the same recording shows the same.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Subject } from 'rxjs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { PlacedEvent } from '@cohort/runtime';
import { parsePlacedEvent } from '@cohort/runtime';
import { serveLiveView, writeRunReport } from '../src/index.ts';
import type { LiveView } from '../src/index.ts';
import { describeInBrowser, openBrowser } from './utils/chromium.ts';

const root = { sessionId: 'r.1', path: ['r.1'] };
const child = { sessionId: 'r.2', path: ['r.1', 'r.2'] };
/** A root on w1, resumed on w3 after w1 was lost; its child ran on w2. */
const EVENTS = [
  { type: 'session.spawned', ...root, at: 1, parentId: null, depth: 0, attempt: 1, name: 'survey', worker: 'w1', unit: 'run-1' },
  { type: 'session.spawned', ...child, at: 2, parentId: 'r.1', depth: 1, attempt: 1, name: 'learn' },
  { type: 'session.spawned', ...child, at: 3, parentId: 'r.1', depth: 1, attempt: 1, name: 'learn', worker: 'w2', unit: 'run-1/0.1' },
  { type: 'session.resumed', ...root, at: 4, worker: 'w3', unit: 'run-1', start: 2, previous: 'w1' },
].map((raw) => parsePlacedEvent(raw) as PlacedEvent);

async function expectWorkers(page: Page): Promise<void> {
  const row = (id: string) => page.locator(`[data-session-id="${id}"]`);
  // the live page takes the resume in a patch: wait for it, then read without waiting
  await expect.poll(() => row('r.1').locator('.worker').allInnerTexts(), { timeout: 5_000 }).toEqual(['w3']);
  expect(await row('r.2').locator('.worker').allInnerTexts()).toEqual(['w2']);
  expect(await row('r.1').locator('.resumed').getAttribute('title')).toBe('resumed: w1 → w3');
  expect(await row('r.2').locator('.resumed').count()).toBe(0);
  await row('r.1').click();
  const details = page.locator('[data-testid="session-details"][data-session="r.1"]');
  await details.waitFor();
  expect(await details.locator('[data-testid="session-worker"]').innerText()).toBe('w1 → w3');
  expect(await details.locator('[data-testid="session-resume"]').innerText()).toMatch(/^start 2 on w3 \(after w1\)/);
}

describeInBrowser('workers in headless Chromium', () => {
  let browser: Awaited<ReturnType<typeof openBrowser>>;
  let view: LiveView;
  const events = new Subject<PlacedEvent>();
  const dir = mkdtempSync(join(tmpdir(), 'cohort-workers-'));

  beforeAll(async () => {
    view = await serveLiveView({ events$: events }, { title: 'workers' });
    browser = await openBrowser();
  });

  afterAll(async () => {
    await browser?.close();
    await view?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("live view - each session's worker in the tree, the resumed badge, every start in the details", async () => {
    await browser.page.goto(view.url);
    await browser.page.waitForSelector('[data-testid="live-status"][data-state="live"]');
    for (const e of EVENTS) events.next(e);
    await expectWorkers(browser.page);
  });

  it('run report - the same from the recording', async () => {
    events.complete();
    const file = join(dir, 'workers.html');
    await writeRunReport(view.recorder.recording(), file);
    await browser.page.goto(pathToFileURL(file).href);
    await browser.page.waitForSelector('#app[data-rendered="true"]');
    await expectWorkers(browser.page);
  });
});
