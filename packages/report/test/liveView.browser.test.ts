import { createServer } from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { createRuntime } from '@cohort/runtime';
import type { Runtime, Session } from '@cohort/runtime';
import { createInspectionTap, serveLiveView } from '../src/index.ts';
import type { LiveView } from '../src/index.ts';
import { artifacts, describeInBrowser, openBrowser } from './utils/chromium.ts';
import { join } from 'node:path';

const SESSIONS = 200;

/** Reads the header's counts from the page. */
async function pageCounts(page: Page): Promise<Record<string, number>> {
  const read = async (id: string): Promise<number> => Number(await page.locator(`[data-testid="count-${id}"]`).innerText());
  return {
    sessions: await read('sessions'),
    running: await read('running'),
    committed: await read('committed'),
    failed: await read('failed'),
  };
}

describeInBrowser('live view in headless Chromium', () => {
  let browser: Awaited<ReturnType<typeof openBrowser>>;
  let page: Page;
  let rt: Runtime;
  let view: LiveView;
  const counted = { sessions: 0, committed: 0, failed: 0 };

  beforeAll(async () => {
    const tap = createInspectionTap();
    rt = createRuntime({ inspect: tap.inspect, runtimeId: 'rt' });
    rt.events$.subscribe((e) => {
      if (e.type === 'session.spawned') counted.sessions += 1;
      else if (e.type === 'session.merged') counted.committed += 1;
      else if (e.type === 'session.failed') counted.failed += 1;
    });
    view = await serveLiveView(rt, { inspection: tap, title: 'Live test' });
    browser = await openBrowser();
    page = browser.page;
    await page.goto(view.url);
    await page.waitForSelector('[data-testid="live-status"][data-state="live"]');
  });

  afterAll(async () => {
    await browser?.close();
    await view?.close();
    await rt?.close();
  });

  it(`live view - a run of ${SESSIONS} sessions shows live sessions while it runs, and the page's counts converge to the runtime's`, async () => {
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const run = rt.run(
      async (root: Session) => {
        const children = Array.from({ length: SESSIONS - 1 }, (_, i) =>
          root.spawn(
            async (s: Session) => {
              await s.tools.add_skill({ section: 'context', issue: `finding ${i}`, insight: 'x' });
              await gate;
              await s.sleep(i % 7);
              if (i % 10 === 3) throw new Error(`child ${i} gave up`);
              return i;
            },
            { name: `worker ${i}` },
          ),
        );
        return Promise.all(children);
      },
      { name: 'root' },
    );
    // while every child waits at the gate, the page shows them running
    await expect.poll(() => page.locator('[data-status="running"]').count(), { timeout: 20_000 }).toBe(SESSIONS);
    await page.click('[data-session-id="rt.2"]');
    expect(await page.locator('[data-testid="session-details"][data-session="rt.2"]').innerText()).toMatch(/running/);
    await page.screenshot({ path: join(artifacts(), 'live-view-running.png') });
    release();
    const outcome = await run;
    expect(outcome.status).toBe('committed');
    expect(counted).toEqual({ sessions: SESSIONS, committed: SESSIONS - 20, failed: 20 });
    await expect.poll(() => pageCounts(page), { timeout: 20_000 }).toEqual({ ...counted, running: 0 });
    expect(await page.locator('[data-session-id]').count()).toBe(SESSIONS);
    expect(await page.locator('svg.timeline g.bar').count()).toBe(SESSIONS);
    const crashed = page.locator('[data-session-id="rt.5"]');
    expect(await crashed.getAttribute('data-failure')).toBe('crashed');
    await crashed.click();
    expect(await page.locator('[data-testid="session-details"][data-session="rt.5"]').innerText()).toContain('child 3 gave up');
  });

  it('live view - closing it ends the stream and frees the port', async () => {
    const { port } = view;
    await view.close();
    await expect.poll(() => page.locator('[data-testid="live-status"]').getAttribute('data-state')).toBe('disconnected');
    await new Promise<void>((resolve, reject) => {
      const probe = createServer()
        .once('error', reject)
        .listen(port, '127.0.0.1', () => probe.close(() => resolve()));
    });
  });
});
