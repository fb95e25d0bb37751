/** Where the page's fragment points: a run (by id) and a session in it. */
export interface PageLink {
  readonly run: string | null;
  readonly session: string | null;
}

/** Reads `#run=r2&session=<id>` (either part may be missing). */
export function readLink(hash: string): PageLink {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  return { run: params.get('run'), session: params.get('session') };
}

/** The fragment of a link to a session (the run named only when the recording has several). */
export function linkTo(session: string, run: string | null): string {
  const params = new URLSearchParams();
  if (run) params.set('run', run);
  params.set('session', session);
  return `#${params.toString()}`;
}
