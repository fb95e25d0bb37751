import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Recording } from './Recording.ts';
import { RecordingSchema } from './Recording.ts';
import { pageHtml } from './internal/pageHtml.ts';

/**
 * The run report of a recording: one self-contained HTML document (inline script and style,
 * the recording embedded as JSON, no network) that opens from `file://` in any browser.
 * Throws a `TypeError` naming the first bad field when `recording` is not a recording.
 *
 * @example
 * const html = renderRunReport(recorder.stop());
 */
export function renderRunReport(recording: Recording): string {
  const parsed = RecordingSchema.safeParse(recording);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new TypeError(`renderRunReport: not a run recording (${issue ? `${issue.path.join('.')}: ${issue.message}` : 'invalid'})`);
  }
  return pageHtml(recording.title, { mode: 'report' }, parsed.data);
}

/**
 * Writes the run report of a recording to `file` (its directory is created); see
 * {@link renderRunReport}. Resolves with the number of bytes written.
 *
 * @example
 * const recorder = recordRun(rt);
 * await rt.run(body);
 * await writeRunReport(recorder.stop(), 'reports/run.html');
 */
export async function writeRunReport(recording: Recording, file: string): Promise<number> {
  const html = renderRunReport(recording);
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, html, 'utf8');
  return Buffer.byteLength(html);
}
