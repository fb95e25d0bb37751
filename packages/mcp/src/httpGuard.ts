import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** What a request to the HTTP endpoint is checked against. */
export interface HttpGuard {
  /** The address the server is bound to. */
  readonly host: string;
  readonly token?: string | undefined;
  readonly allowedOrigins: readonly string[];
}

/** Why a request is refused: the HTTP status, a message, and headers to send. */
export interface Refusal {
  readonly status: number;
  readonly message: string;
  readonly headers?: Record<string, string>;
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

function hostnameOf(hostHeader: string): string {
  try {
    return new URL(`http://${hostHeader}`).hostname;
  } catch {
    return '';
  }
}

function sameSecret(given: string, expected: string): boolean {
  // hashed first: equal lengths for timingSafeEqual, and no early exit on the length
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}

/**
 * Why `req` may not reach the MCP endpoint, or `null` when it may. On a loopback address the
 * `Host` header must name this machine (a page that rebinds its own domain to 127.0.0.1 sends
 * its own name); an `Origin` header, which browsers send, must be this machine's or one
 * allowed (a page elsewhere is refused: the protocol asks for this against DNS rebinding); with
 * a token, `Authorization: Bearer <token>` must carry it. The SDK's own options for this are
 * deprecated in favour of a check in front of the transport, which this is.
 */
export function refusal(req: IncomingMessage, guard: HttpGuard): Refusal | null {
  if (LOOPBACK.has(guard.host)) {
    const hostname = hostnameOf(req.headers.host ?? '');
    if (!LOOPBACK.has(hostname))
      return { status: 403, message: `refused: the Host header ${JSON.stringify(req.headers.host ?? '')} is not this machine` };
  }
  const origin = req.headers.origin;
  if (origin !== undefined && !guard.allowedOrigins.includes(origin)) {
    let hostname = '';
    try {
      hostname = new URL(origin).hostname;
    } catch {}
    if (!LOOPBACK.has(hostname)) return { status: 403, message: `refused: the Origin ${JSON.stringify(origin)} is not allowed` };
  }
  if (guard.token !== undefined) {
    const auth = req.headers.authorization ?? '';
    const given = /^Bearer (.+)$/i.exec(auth)?.[1] ?? '';
    if (given === '' || !sameSecret(given, guard.token)) {
      return {
        status: 401,
        message: given === '' ? 'refused: a bearer token is required' : 'refused: the bearer token is wrong',
        headers: { 'www-authenticate': 'Bearer' },
      };
    }
  }
  return null;
}
