import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRuntime } from '@cohort/runtime';
import type { Session } from '@cohort/runtime';
import { parseRecording, recordRun, renderRunReport, writeRunReport } from '../src/index.ts';
import type { Recording } from '../src/index.ts';
import { demoRun } from './utils/demoRun.ts';

/** The recording a report embeds, read back out of its HTML. */
function embedded(html: string): string {
  const match = /<script type="application\/json" id="cohort-recording">([\s\S]*?)<\/script>/.exec(html);
  if (!match?.[1]) throw new Error('no embedded recording');
  return match[1];
}

describe('writeRunReport', () => {
  it('renderRunReport - one self-contained document: inline script and style, the recording embedded, no URL to load', async () => {
    const { recording } = await demoRun();
    const html = renderRunReport(recording);
    expect(html).toMatch(/^<!doctype html>/);
    expect(html).toContain('Content-Security-Policy" content="default-src \'none\'');
    expect(html).not.toMatch(/<script[^>]+src=|<link[^>]+href=|https?:\/\/(?!www\.w3\.org\/2000\/svg)/);
    expect(html.match(/<\/script>/g)).toHaveLength(3);
    const parsed = parseRecording(embedded(html));
    expect(parsed.ok && parsed.recording).toEqual(JSON.parse(JSON.stringify(recording)));
  });

  it('renderRunReport - text from sessions cannot close the script element or inject markup', async () => {
    const rt = createRuntime();
    const recorder = recordRun(rt, { title: '</title><script>alert(1)</script>' });
    await rt.run(
      async (s: Session) => {
        await s.tools.add_skill({ section: 'harness', issue: '</script><img src=x onerror=alert(1)>', insight: '<!--' });
        throw new Error('</script>');
      },
      { name: '</script>' },
    );
    const html = renderRunReport(recorder.stop());
    await rt.close();
    expect(html.match(/<\/script>/g)).toHaveLength(3);
    expect(html).toContain('<title>&#60;/title&#62;&#60;script&#62;alert(1)&#60;/script&#62;</title>');
    const parsed = parseRecording(embedded(html));
    expect(parsed.ok && parsed.recording.runs[0]!.sessions[0]!.name).toBe('</script>');
  });

  it('renderRunReport - refuses what is not a recording, naming the field', () => {
    expect(() => renderRunReport({ format: 'cohort.run-recording', version: 1, title: 't', runs: [{}] } as unknown as Recording)).toThrow(
      /not a run recording \(runs\.0\.id/,
    );
  });

  it('writeRunReport - writes the file (creating its directory) and returns its size', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cohort-report-'));
    try {
      const { recording } = await demoRun();
      const file = join(dir, 'nested', 'run.html');
      const bytes = await writeRunReport(recording, file);
      const text = await readFile(file, 'utf8');
      expect(Buffer.byteLength(text)).toBe(bytes);
      expect(text).toBe(renderRunReport(recording));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
