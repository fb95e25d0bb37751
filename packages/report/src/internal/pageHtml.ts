import type { PageBoot } from '../LiveMessage.ts';
import type { Recording } from '../Recording.ts';
import { PAGE_SCRIPT, PAGE_STYLE } from './pageAssets.generated.ts';

/** The script and style the page runs, inlined: the page never loads anything else. */
const CSP = {
  report: "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:",
  live: "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; img-src data:; connect-src 'self'",
} as const;

/**
 * The page of a report or of the live view: one HTML document with its script, style and (for
 * a report) the recording inline. A Content-Security-Policy forbids every request but the live
 * view's own event stream.
 */
export function pageHtml(title: string, boot: PageBoot, recording?: Recording): string {
  const data = recording ? `<script type="application/json" id="cohort-recording">${scriptJson(recording)}</script>\n` : '';
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${CSP[boot.mode === 'live' ? 'live' : 'report']}">
<title>${escapeHtml(title)}</title>
<style>${PAGE_STYLE}</style>
</head>
<body>
<div id="app" data-loading="true">Loading…</div>
<script type="application/json" id="cohort-boot">${scriptJson(boot)}</script>
${data}<script>${PAGE_SCRIPT}</script>
</body>
</html>
`;
}

/** JSON that is safe inside a `<script>` element: no `<` can close it. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c');
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
