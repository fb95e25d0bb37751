import { describe, expect, it } from 'vitest';
import { createRuntime } from '@cohort/runtime';
import type { Session } from '@cohort/runtime';
import { parseRecording, serveLiveView } from '../src/index.ts';
import type { LiveMessage, RunSummary } from '../src/index.ts';
import { liveMessages } from './utils/liveMessages.ts';

const addSkill = (issue: string) => async (s: Session) => s.tools.add_skill({ section: 'harness', issue, insight: 'x' });

/** The first `snapshot` on the view's event stream that `ok` accepts. */
async function snapshotWhere(url: string, ok: (m: Extract<LiveMessage, { type: 'snapshot' }>) => boolean, start: () => void) {
  const res = await fetch(`${url}events`);
  const reader = res.body!.getReader();
  let started = false;
  try {
    for await (const message of liveMessages(reader)) {
      if (message.type !== 'snapshot') continue;
      if (ok(message)) return message;
      if (!started) {
        started = true;
        start();
      }
    }
    throw new Error('the stream ended without the snapshot');
  } finally {
    await reader.cancel();
  }
}

describe('serveLiveView - runs', () => {
  it('attach adds a runtime as a run of its own; /runs.json lists every run, an ended one stays there', async () => {
    const first = createRuntime();
    const view = await serveLiveView(first, { label: 'first' });
    try {
      await first.run(addSkill('in the first run'));
      await first.close();
      const second = createRuntime();
      let runId = '';
      // a page that is open when the run is added gets a snapshot holding it
      const snapshot = await snapshotWhere(
        view.url,
        (m) => m.recording.runs.length === 2,
        () => (runId = view.attach(second)),
      );
      expect(snapshot.recording.runs.map((r) => r.label)).toEqual(['first', 'run 2']);
      await second.run(addSkill('in the second run'));
      const runs = (await (await fetch(`${view.url}runs.json`)).json()) as RunSummary[];
      expect(runs.map((r) => [r.id, r.label, r.sessions, r.endedAt !== null])).toEqual([
        ['r1', 'first', 1, true],
        [runId, 'run 2', 1, false],
      ]);
      const parsed = parseRecording(await (await fetch(`${view.url}recording.json`)).text());
      const ops = parsed.ok ? parsed.recording.runs.map((r) => r.sessions[0]?.landed[0]?.ops[0]?.issue) : [];
      expect(ops).toEqual(['in the first run', 'in the second run']);
      await second.close();
    } finally {
      await view.close();
    }
  });
});
