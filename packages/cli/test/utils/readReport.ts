import { readFileSync } from 'node:fs';
import { parseRecording } from '@cohort/report';
import type { Recording } from '@cohort/report';

/** The recording embedded in a run report file (it fails the test when there is none or it does not parse). */
export function readReport(file: string): Recording {
  const html = readFileSync(file, 'utf8');
  if (!html.startsWith('<!doctype html>')) throw new Error(`${file} is not an HTML page`);
  const json = /<script type="application\/json" id="cohort-recording">([\s\S]*?)<\/script>/.exec(html)?.[1];
  if (json === undefined) throw new Error(`${file} embeds no recording`);
  const parsed = parseRecording(json);
  if (!parsed.ok) throw new Error(`${file}: ${parsed.message}`);
  return parsed.recording;
}
