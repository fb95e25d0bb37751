import type { IncomingHttpHeaders } from 'node:http';
import { request } from 'node:http';
import { createRuntime, defaultLimits } from '@cohort/runtime';
import type { Runtime } from '@cohort/runtime';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import type { HttpEndpoint } from '../src/index.ts';
import { serveHttp, SkillbookMcp } from '../src/index.ts';
import { value } from './utils/clients.ts';

let rt: Runtime;
let mcp: SkillbookMcp;
let endpoint: HttpEndpoint;

async function start(token?: string) {
  rt = createRuntime({ limits: { maxTextLength: 1_000 } });
  await rt.ready;
  mcp = new SkillbookMcp({ runtime: rt, limits: { ...defaultLimits, maxTextLength: 1_000 } });
  endpoint = await serveHttp(mcp, { port: 0, ...(token ? { token } : {}) });
}

async function connect(name: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(endpoint.url), { requestInit: { headers } }));
  return client;
}

const initialize = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
});

/** An initialize request with these headers (node:http: fetch would not send a Host of our own); its status and body. */
function post(headers: Record<string, string>): Promise<{ status: number; headers: IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      endpoint.url,
      { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } },
      (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => void (body += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    req.end(initialize);
  });
}

afterEach(async () => {
  await endpoint.close();
  await mcp.close();
  await rt.close();
});

describe('serveHttp', () => {
  it('http - a client lists the tools and commits a task over Streamable HTTP', async () => {
    await start();
    const client = await connect('http-agent');
    expect((await client.listTools()).tools.map((t) => t.name)).toContain('task.begin');
    const { task } = await value(client, 'task.begin', { name: 'notes' });
    const added = await value(client, 'add_skill', { task, section: 'harness', issue: 'slow CI', insight: 'cache deps' });
    expect(rt.book.size).toBe(0);
    expect(await value(client, 'task.commit', { task })).toMatchObject({ status: 'committed', added: [added.skill_id] });
    expect(rt.book.get(String(added.skill_id))?.insight).toBe('cache deps');
    await client.close();
  });

  it('bad input - wrong types, oversized arguments, unknown tools, a missing task: tool errors, and the server goes on', async () => {
    await start();
    const client = await connect('careless');
    const refusals: [string, Record<string, unknown>, RegExp][] = [
      ['add_skill', { section: 7, issue: ['x'] }, /Input validation error/],
      ['add_skill', { section: 'harness', issue: 'x', insight: 'y'.repeat(5_000) }, /at most 1000 characters \(limits\.maxTextLength\)/],
      ['add_skill', { section: 'harness', issue: 'x', sneaky: true }, /Input validation error/],
      ['no.such.tool', {}, /Tool no.such.tool not found/],
      ['task.commit', { task: 'nobody.1' }, /no open task nobody\.1/],
      ['update_skill', { skill_id: 'harness-00042', insight: 'z' }, /./],
      ['skillbook.search', { keywords: 'not a list' }, /Input validation error/],
    ];
    for (const [tool, args, message] of refusals) {
      const result = (await client.callTool({ name: tool, arguments: args })) as CallToolResult;
      expect(result.isError, tool).toBe(true);
      expect(JSON.stringify(result.content), tool).toMatch(message);
    }
    expect(rt.book.size).toBe(0);
    expect(await value(client, 'add_skill', { section: 'harness', issue: 'still serving', insight: 'yes' })).toMatchObject({ ok: true });
    await client.close();
  });

  it('origin - a request from a page elsewhere is refused; this machine and no Origin are served', async () => {
    await start();
    const foreign = await post({ origin: 'https://evil.example' });
    expect(foreign.status).toBe(403);
    expect(JSON.parse(foreign.body).error.message).toBe('refused: the Origin "https://evil.example" is not allowed');
    expect((await post({ host: 'evil.example' })).status).toBe(403);
    expect((await post({ origin: 'http://localhost:5173' })).status).toBe(200);
    expect((await post({})).status).toBe(200);
  });

  it('token - a missing or wrong bearer token is refused; the right one is served', async () => {
    await start('s3cret');
    const missing = await post({});
    expect(missing.status).toBe(401);
    expect(missing.headers['www-authenticate']).toBe('Bearer');
    expect((await post({ authorization: 'Bearer wrong' })).status).toBe(401);
    await expect(connect('no-token')).rejects.toThrow();
    const client = await connect('with-token', { authorization: 'Bearer s3cret' });
    expect((await value(client, 'skillbook.get')).revision).toBe(0);
    await client.close();
  });
});
