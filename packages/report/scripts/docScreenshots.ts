/**
 * Regenerates the pictures in docs/images/ (the demo's run report, the live view mid-run) in
 * headless Chromium: `./pnpmw exec tsx packages/report/scripts/docScreenshots.ts`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createRuntime } from '@cohort/runtime';
import type { Session } from '@cohort/runtime';
import { createInspectionTap, serveLiveView, writeRunReport } from '../src/index.ts';
import { openBrowser } from '../test/utils/chromium.ts';
import { demoRun } from '../test/utils/demoRun.ts';

const images = join(import.meta.dirname, '..', '..', '..', 'docs', 'images');
const dir = mkdtempSync(join(tmpdir(), 'cohort-shots-'));
const browser = await openBrowser();
const { page } = browser;
await page.setViewportSize({ width: 1180, height: 760 });
try {
  const { recording } = await demoRun();
  const file = join(dir, 'demo.html');
  await writeRunReport(recording, file);
  await page.goto(pathToFileURL(file).href);
  await page.waitForSelector('#app[data-rendered="true"]');
  await page.click('[data-session-id="demo.3"]');
  await page.waitForSelector('[data-testid="session-details"]');
  await page.screenshot({ path: join(images, 'run-report.png') });
  const timeline = await page.locator('.timeline-panel').boundingBox();
  const book = await page.locator('[data-testid="book-diff"]').boundingBox();
  if (timeline && book) {
    await page.screenshot({
      path: join(images, 'run-report-timeline.png'),
      fullPage: true,
      clip: { x: 0, y: timeline.y - 8, width: 1180, height: book.y + book.height - timeline.y + 16 },
    });
  }
  await liveShot();
} finally {
  await browser.close();
  rmSync(dir, { recursive: true, force: true });
}

/** The live view while a fan-out of 24 workers is half done. */
async function liveShot(): Promise<void> {
  const tap = createInspectionTap();
  const rt = createRuntime({ inspect: tap.inspect, runtimeId: 'rt' });
  const view = await serveLiveView(rt, { inspection: tap, title: 'Nightly review (live)' });
  await page.goto(view.url);
  await page.waitForSelector('[data-testid="live-status"][data-state="live"]');
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const run = rt.run(
    async (root: Session) =>
      Promise.all(
        Array.from({ length: 24 }, (_, i) =>
          root.spawn(
            async (s: Session) => {
              await s.tools.add_skill({ section: 'context', issue: `finding ${i}`, insight: 'x' });
              await s.sleep(20 + i * 15);
              if (i % 9 === 4) throw new Error(`worker ${i}: the model call timed out`);
              if (i >= 12) await gate;
            },
            { name: `worker ${i}` },
          ),
        ),
      ),
    { name: 'review' },
  );
  await page.waitForFunction(() => document.querySelectorAll('[data-status="committed"]').length >= 10);
  await page.click('[data-session-id="rt.7"]');
  await page.waitForTimeout(300);
  await page.screenshot({ path: join(images, 'live-view.png') });
  release();
  await run;
  await view.close();
  await rt.close();
}
