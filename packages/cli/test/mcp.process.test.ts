import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRuntime } from '@cohort/runtime';
import { FileStore } from '@cohort/store';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { runCohort } from './utils/runCohort.ts';

const root = join(import.meta.dirname, '..', '..', '..');
const cleanup: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

async function scratch(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'cohort-mcp-cli-'));
  cleanup.push(() => rm(dir, { recursive: true, force: true }));
  return join(dir, 'skillbook.json');
}

/** `cohort mcp <args>` started by an SDK client over stdio, as an MCP client's config starts it. */
async function stdioClient(
  args: readonly string[],
  name = 'stdio-agent',
): Promise<{ client: Client; stderr: () => string; transport: StdioClientTransport }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['--import', 'tsx', 'packages/cli/src/main.ts', 'mcp', ...args],
    cwd: root,
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => void (stderr += chunk.toString()));
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(transport);
  cleanup.push(() => client.close());
  return { client, stderr: () => stderr, transport };
}

/** `cohort mcp <args> --http 127.0.0.1:0` as a process; resolves with its URL once it serves. */
async function httpServer(args: readonly string[]): Promise<{ url: string; child: ChildProcessWithoutNullStreams; stderr: () => string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'packages/cli/src/main.ts', 'mcp', ...args, '--http', '127.0.0.1:0'], {
    cwd: root,
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => void (stderr += chunk.toString()));
  cleanup.push(async () => {
    if (child.exitCode === null) {
      child.kill('SIGTERM');
      await once(child, 'exit');
    }
  });
  await expect.poll(() => stderr, { timeout: 30_000 }).toMatch(/at http:\/\/127\.0\.0\.1:\d+\/mcp/);
  return { url: /at (http:\/\/\S+\/mcp)/.exec(stderr)?.[1] ?? '', child, stderr: () => stderr };
}

async function httpClient(url: string, name: string): Promise<Client> {
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  cleanup.push(() => client.close());
  return client;
}

async function value(client: Client, tool: string, args: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  const result = (await client.callTool({ name: tool, arguments: args })) as CallToolResult;
  if (result.isError) throw new Error(`${tool} refused: ${JSON.stringify(result.content)}`);
  return result.structuredContent as Record<string, unknown>;
}

async function bookAt(path: string) {
  const opened = await FileStore.open(path);
  if (!opened.ok) throw new Error(opened.error.message);
  const book = opened.store.book;
  await opened.store.close();
  return book;
}

describe('cohort mcp', () => {
  it('stdio - tools, a search, a task that commits and one that aborts; the audit names client and task in cohort book log', async () => {
    const path = await scratch();
    const { client } = await stdioClient([path]);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(
      expect.arrayContaining(['skillbook.get', 'skillbook.search', 'task.begin', 'task.commit']),
    );
    const { task } = await value(client, 'task.begin', { name: 'flaky-ci' });
    await value(client, 'add_skill', {
      task,
      section: 'harness',
      issue: 'The CI network is flaky',
      insight: 'retry twice',
      keywords: ['network'],
    });
    const commit = await value(client, 'task.commit', { task });
    expect(commit).toMatchObject({ status: 'committed', added: ['harness-00001'], landed: ['ADD harness-00001'] });
    const dropped = await value(client, 'task.begin');
    await value(client, 'add_skill', { task: dropped.task, section: 'harness', issue: 'not kept', insight: 'x' });
    expect(await value(client, 'task.abort', { task: dropped.task })).toMatchObject({ status: 'aborted', discarded: 1 });
    const search = await value(client, 'skillbook.search', { text: 'network retries' });
    expect(search.hits).toEqual([expect.objectContaining({ skill: expect.objectContaining({ id: 'harness-00001' }) })]);
    expect((await value(client, 'skillbook.get')).prompt).toContain('The CI network is flaky');
    const log = await runCohort(['book', 'log', path]);
    expect(log.out).toMatch(/\(stdio-agent#1\/flaky-ci\)/);
  });

  it('stdio - a client that goes away mid-task: its draft is dropped, the server says so and stops', async () => {
    const path = await scratch();
    const { client, stderr, transport } = await stdioClient([path], 'leaver');
    const { task } = await value(client, 'task.begin', { name: 'half-done' });
    await value(client, 'add_skill', { task, section: 'harness', issue: 'never lands', insight: 'x' });
    const pid = transport.pid;
    await client.close();
    await expect.poll(() => stderr(), { timeout: 30_000 }).toMatch(/leaver#1 disconnected: dropped task \S+ \(leaver#1\/half-done\), 1 op/);
    await expect.poll(() => (pid ? processAlive(pid) : false), { timeout: 30_000 }).toBe(false);
    expect((await bookAt(path)).size).toBe(0);
  });

  it('stdio - a subscriber is told when another process writes the book', async () => {
    const path = await scratch();
    const { client } = await stdioClient([path]);
    const updated: string[] = [];
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void updated.push(n.params.uri));
    await client.subscribeResource({ uri: 'skillbook://book' });
    // this test's process is the other writer
    const opened = await FileStore.open(path);
    if (!opened.ok) throw new Error(opened.error.message);
    const rt = createRuntime({ store: opened.store });
    expect((await rt.run(async (s) => s.tools.add_skill({ section: 'context', issue: 'learned elsewhere', insight: 'y' }))).status).toBe(
      'committed',
    );
    await rt.close();
    await expect.poll(() => updated, { timeout: 30_000 }).toContain('skillbook://book');
    expect((await value(client, 'skillbook.get')).prompt).toContain('learned elsewhere');
  });

  it('http - two clients whose tasks conflict: one lands, the other gets its conflicts', async () => {
    const path = await scratch();
    const { url } = await httpServer([path]);
    const [a, b] = [await httpClient(url, 'a'), await httpClient(url, 'b')];
    const { skill_id } = await value(a, 'add_skill', { section: 'context', issue: 'units', insight: 'SI' });
    const [ta, tb] = [(await value(a, 'task.begin')).task, (await value(b, 'task.begin')).task];
    await value(a, 'update_skill', { task: ta, skill_id, insight: 'SI, always' });
    await value(b, 'remove_skill', { task: tb, skill_id });
    expect(await value(a, 'task.commit', { task: ta })).toMatchObject({ status: 'committed' });
    const lost = (await b.callTool({ name: 'task.commit', arguments: { task: tb } })) as CallToolResult;
    expect(lost.isError).toBe(true);
    expect(lost.structuredContent).toMatchObject({
      status: 'conflict',
      conflicts: [{ type: 'REMOVE', skillId: skill_id, reason: 'content_changed' }],
    });
    expect((await value(b, 'read_skill', { skill_id })).skill).toMatchObject({ insight: 'SI, always', active: true });
  });

  it('http - a client process killed mid-task: past the idle timeout its draft is dropped, and the log says so', async () => {
    const path = await scratch();
    const { url, stderr } = await httpServer([path, '--idle-timeout', '1']);
    const child = spawn(process.execPath, ['--import', 'tsx', 'packages/cli/test/utils/mcpTaskChild.ts', url], { cwd: root });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => void (out += chunk.toString()));
    await expect.poll(() => out, { timeout: 30_000 }).toMatch(/\S+\n/);
    child.kill('SIGKILL');
    await once(child, 'exit');
    const task = out.trim();
    await expect
      .poll(() => stderr(), { timeout: 30_000 })
      .toContain(`doomed#1 idle for 1 s: dropped task ${task} (doomed#1/half-done), 1 op(s) not written`);
    const reader = await httpClient(url, 'reader');
    expect((await value(reader, 'skillbook.get')).stats).toMatchObject({ skills: 0 });
  });
});

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
