import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createRuntime } from '@cohort/runtime';
import type { Runtime, Session } from '@cohort/runtime';
import { serveLiveView } from '../src/index.ts';
import type { LiveView } from '../src/index.ts';
import { describeInBrowser, openBrowser } from './utils/chromium.ts';

const SLOW = { timeout: 10_000 };

const named = (name: string) => async (s: Session) => {
  await s.spawn(async (c) => c.tools.add_skill({ section: 'harness', issue: `${name} child`, insight: 'x' }), { name: `${name} child` });
};

describeInBrowser('live view - the runs it has seen', () => {
  let browser: Awaited<ReturnType<typeof openBrowser>>;
  let page: Page;
  let view: LiveView;
  let second: Runtime;
  let firstChild = '';

  beforeAll(async () => {
    const first = createRuntime();
    view = await serveLiveView(first, { label: 'first' });
    await first.run(named('first'), { name: 'first planner' });
    await first.close();
    second = createRuntime();
    view.attach(second, { label: 'second' });
    await second.run(named('second'), { name: 'second planner' });
    firstChild = view.recorder.recording().runs[0]!.sessions.find((s) => s.name === 'first child')!.id;
    browser = await openBrowser();
    page = browser.page;
  });

  afterAll(async () => {
    await browser?.close();
    await second?.close();
    await view?.close();
  });

  const names = () => page.locator('[data-session-id] .name').allInnerTexts();

  it('shows its newest run first, and an ended run when its button is pressed', async () => {
    await page.goto(view.url);
    await expect.poll(names, SLOW).toEqual(['second planner', 'second child']);
    expect(await page.locator('nav.runs button').allInnerTexts()).toEqual(['first · 2 sessions', 'second · 2 sessions · live']);
    await page.click('nav.runs button[data-run="r1"]');
    await expect.poll(names, SLOW).toEqual(['first planner', 'first child']);
  });

  it('a link to a session of an ended run opens that run and the session', async () => {
    await page.goto('about:blank');
    await page.goto(`${view.url}#run=r1&session=${encodeURIComponent(firstChild)}`);
    await expect.poll(() => page.getAttribute('[data-testid="session-details"]', 'data-session'), SLOW).toBe(firstChild);
    await expect.poll(() => page.getAttribute('nav.runs button[data-run="r1"]', 'aria-pressed'), SLOW).toBe('true');
  });
});
