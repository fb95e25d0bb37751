import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import { refusal } from './httpGuard.ts';
import type { HttpGuard } from './httpGuard.ts';
import type { SkillbookMcp } from './SkillbookMcp.ts';

/** Where and how to serve Streamable HTTP. */
export interface HttpServeOptions {
  /** Default `127.0.0.1`: only this machine can connect. */
  readonly host?: string;
  /** 0: any free port. */
  readonly port: number;
  /** When set, every request must carry `Authorization: Bearer <token>`. */
  readonly token?: string;
  /** Browser origins allowed besides this machine's own (`http://localhost:…`, `http://127.0.0.1:…`). */
  readonly allowedOrigins?: readonly string[];
  /** Largest request body read, in bytes (default 4 MiB). */
  readonly maxBodyBytes?: number;
}

/** A running HTTP endpoint. */
export interface HttpEndpoint {
  /** `http://host:port/mcp`. */
  readonly url: string;
  /** Stops accepting requests and disconnects every client. */
  close(): Promise<void>;
}

function jsonError(res: ServerResponse, status: number, message: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

async function readJson(
  req: IncomingMessage,
  max: number,
): Promise<{ ok: true; body: unknown } | { ok: false; status: number; message: string }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > max) return { ok: false, status: 413, message: `the request body is over ${max} bytes` };
    chunks.push(chunk);
  }
  try {
    return { ok: true, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) };
  } catch {
    return { ok: false, status: 400, message: 'the request body is not JSON' };
  }
}

/**
 * Serves `mcp` over Streamable HTTP at `/mcp`, one MCP session per client (its
 * `Mcp-Session-Id`). Every request is checked first ({@link refusal}): the `Host` and `Origin`
 * headers against DNS rebinding, and the bearer token when one is set. A client idle past the
 * server's timeout has its tasks dropped and its session closed; `DELETE /mcp` closes it at once.
 *
 * @example
 * const endpoint = await serveHttp(mcp, { port: 8808 });
 * console.error(`serving ${endpoint.url}`);
 */
export async function serveHttp(mcp: SkillbookMcp, options: HttpServeOptions): Promise<HttpEndpoint> {
  const host = options.host ?? '127.0.0.1';
  const maxBody = options.maxBodyBytes ?? 4 * 1024 * 1024;
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const guard: HttpGuard = { host, token: options.token, allowedOrigins: options.allowedOrigins ?? [] };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://placeholder');
    if (url.pathname !== '/mcp') return jsonError(res, 404, 'not found: the endpoint is /mcp');
    const refused = refusal(req, guard);
    if (refused) return jsonError(res, refused.status, refused.message, refused.headers);
    const id = req.headers['mcp-session-id'];
    const known = typeof id === 'string' ? sessions.get(id) : undefined;
    if (req.method !== 'POST') {
      if (!known) return jsonError(res, 404, 'no such session: initialize one with a POST');
      return known.handleRequest(req, res);
    }
    const read = await readJson(req, maxBody);
    if (!read.ok) return jsonError(res, read.status, read.message);
    if (known) return known.handleRequest(req, res, read.body);
    if (typeof id === 'string') return jsonError(res, 404, 'no such session: it ended (initialize a new one)');
    if (!isInitializeRequest(read.body)) return jsonError(res, 400, 'no session: the first request must be initialize');
    const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (sid) => void sessions.set(sid, transport),
    });
    transport.onclose = () => {
      if (transport.sessionId) sessions.delete(transport.sessionId);
    };
    await mcp.connect(transport, { onIdle: () => void transport.close() });
    await transport.handleRequest(req, res, read.body);
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) jsonError(res, 500, error instanceof Error ? error.message : String(error));
      else res.end();
    });
  });
  server.listen(options.port, host);
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const shown = host.includes(':') ? `[${host}]` : host;
  return {
    url: `http://${shown}:${port}/mcp`,
    close: async () => {
      await Promise.all([...sessions.values()].map((t) => t.close().catch(() => {})));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
