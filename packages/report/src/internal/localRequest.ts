import type { IncomingMessage } from 'node:http';

/** Why a request to the live view is refused: the status and the line to answer with. */
export interface Refusal {
  readonly status: number;
  readonly message: string;
}

/**
 * Checks that a request to the live view on 127.0.0.1:`port` comes for that address. A page
 * of any other site can make its own name resolve to 127.0.0.1 (DNS rebinding) and then read
 * the view as same-origin: its requests still carry its own name in `Host`, so `Host` must be
 * `127.0.0.1:<port>` or `localhost:<port>`. A request from a page (`Origin`) must come from
 * the view's own page, which browsers send on cross-origin event streams.
 */
export function refusedRequest(req: IncomingMessage, port: number): Refusal | null {
  const hosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`, ...(port === 80 ? ['127.0.0.1', 'localhost'] : [])]);
  if (!hosts.has((req.headers.host ?? '').toLowerCase())) {
    return { status: 421, message: `the live view answers only http://127.0.0.1:${port}/ and http://localhost:${port}/\n` };
  }
  const origin = req.headers.origin?.toLowerCase();
  if (origin !== undefined && !(origin.startsWith('http://') && hosts.has(origin.slice('http://'.length)))) {
    return { status: 403, message: `the live view is only for its own page, http://127.0.0.1:${port}/\n` };
  }
  return null;
}
