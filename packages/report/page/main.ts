/**
 * The run report's and the live view's page: plain TypeScript and DOM, bundled by esbuild into
 * one inline script (scripts/buildPage.mjs). A report reads the recording embedded in the page;
 * the live view follows its event stream.
 */
import type { PageBoot } from '../src/LiveMessage.ts';
import type { Recording } from '../src/Recording.ts';
import { App } from './app.ts';
import { followLive } from './live.ts';

const startedAt = performance.now();

function readJson<T>(id: string): T | null {
  const text = document.getElementById(id)?.textContent;
  return text ? (JSON.parse(text) as T) : null;
}

function boot(): void {
  const root = document.getElementById('app');
  if (!root) return;
  try {
    const config = readJson<PageBoot>('cohort-boot') ?? { mode: 'report' };
    if (config.mode === 'live') {
      const app = new App(
        root,
        { format: 'cohort.run-recording', version: 1, title: 'Cohort live view', content: 'on', runs: [] },
        'connecting',
        startedAt,
      );
      app.render();
      followLive(app, config.events);
      return;
    }
    const recording = readJson<Recording>('cohort-recording');
    if (recording?.format !== 'cohort.run-recording' || recording.version !== 1) {
      throw new Error('this page holds no Cohort run recording (or one of an unknown version)');
    }
    new App(root, recording, null, startedAt).render();
  } catch (err) {
    root.textContent = `The report could not be shown: ${err instanceof Error ? err.message : String(err)}`;
    root.dataset['error'] = 'true';
  }
}

boot();
