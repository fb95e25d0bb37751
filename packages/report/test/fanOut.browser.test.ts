import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { createRuntime } from '@cohort/runtime';
import type { Session } from '@cohort/runtime';
import { createInspectionTap, recordRun, writeRunReport } from '../src/index.ts';
import { artifacts, describeInBrowser, openBrowser } from './utils/chromium.ts';

const CHILDREN = 10_000;

/**
 * The report of a 10,000-session fan-out opens and renders. Untimed: the figures (record,
 * write, size, time to first render) go to test-artifacts/report-fan-out.json and the log.
 */
describeInBrowser('run report of a 10,000-session fan-out', () => {
  const dir = mkdtempSync(join(tmpdir(), 'cohort-fan-out-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it(`fan-out report - ${CHILDREN + 1} sessions open, one timeline bar each, the tree virtualised`, async () => {
    const t0 = performance.now();
    const tap = createInspectionTap();
    const rt = createRuntime({ inspect: tap.inspect, runtimeId: 'rt' });
    const recorder = recordRun(rt, { title: `Fan-out of ${CHILDREN}`, inspection: tap });
    const outcome = await rt.run(
      async (root: Session) =>
        Promise.all(
          Array.from({ length: CHILDREN }, (_, i) =>
            root.spawn(
              async (s: Session) => {
                await s.tools.add_skill({ section: 'context', issue: `finding ${i}`, insight: 'x' });
              },
              { name: `child ${i}` },
            ),
          ),
        ),
      { name: 'root' },
    );
    expect(outcome.status).toBe('committed');
    const t1 = performance.now();
    const recording = recorder.stop();
    await rt.close();
    const file = join(dir, 'fan-out.html');
    const bytes = await writeRunReport(recording, file);
    const t2 = performance.now();
    const browser = await openBrowser();
    try {
      const { page } = browser;
      const opened = performance.now();
      await page.goto(pathToFileURL(file).href);
      await page.waitForSelector('#app[data-rendered="true"]', { timeout: 60_000 });
      const openMs = performance.now() - opened;
      const renderMs = Number(await page.getAttribute('#app', 'data-render-ms'));
      expect(await page.locator('[data-testid="count-sessions"]').innerText()).toBe(String(CHILDREN + 1));
      expect(await page.getAttribute('[data-testid="session-tree"]', 'data-rows')).toBe(String(CHILDREN + 1));
      expect(await page.locator('svg.timeline g.bar').count()).toBe(CHILDREN + 1);
      const inDocument = await page.locator('[data-session-id]').count();
      expect(inDocument).toBeGreaterThan(0);
      expect(inDocument).toBeLessThan(200);
      // scrolling to the end paints the last sessions
      await page.locator('[data-testid="session-tree"]').evaluate((el) => el.scrollTo(0, el.scrollHeight));
      await page.waitForSelector(`[data-session-id="rt.${CHILDREN + 1}"]`);
      const figures = {
        sessions: CHILDREN + 1,
        runAndRecordMs: Math.round(t1 - t0),
        stopAndWriteMs: Math.round(t2 - t1),
        reportBytes: bytes,
        openToRenderedMs: Math.round(openMs),
        pageRenderMs: renderMs,
      };
      writeFileSync(join(artifacts(), 'report-fan-out.json'), `${JSON.stringify(figures, null, 2)}\n`);
      console.log(`fan-out report figures: ${JSON.stringify(figures)}`);
    } finally {
      await browser.close();
    }
  });
});
