import { createRuntime } from '@cohort/runtime';
import type { Runtime } from '@cohort/runtime';
import { afterEach, describe, expect, it } from 'vitest';
import { SkillbookMcp } from '../src/index.ts';
import { call, inMemoryClient, value } from './utils/clients.ts';

let rt: Runtime;
let mcp: SkillbookMcp;
const log: string[] = [];

async function start(options: { readOnly?: boolean; idleTimeoutMs?: number } = {}) {
  rt = createRuntime();
  await rt.ready;
  log.length = 0;
  mcp = new SkillbookMcp({ runtime: rt, log: (line) => log.push(line), ...options });
}

afterEach(async () => {
  await mcp.close();
  await rt.close();
});

describe('SkillbookMcp', () => {
  it('tools - a client lists the reading, task and write tools', async () => {
    await start();
    const client = await inMemoryClient(mcp, 'agent');
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(
      [
        'add_skill',
        'read_skill',
        'remove_skill',
        'skillbook.get',
        'skillbook.search',
        'tag_skill',
        'task.abort',
        'task.begin',
        'task.commit',
        'task.list',
        'update_skill',
      ].sort(),
    );
    expect(tools.every((t) => t.outputSchema !== undefined)).toBe(true);
  });

  it('read - a one-shot add lands at once; get shows it as ACE prompt text, read_skill whole', async () => {
    await start();
    const client = await inMemoryClient(mcp, 'agent');
    const added = await value(client, 'add_skill', { section: 'harness', issue: 'flaky network', insight: 'retry twice' });
    expect(added).toMatchObject({
      ok: true,
      skill_id: 'harness-00001',
      commit: { status: 'committed', added: ['harness-00001'], landed: ['ADD harness-00001'] },
    });
    const book = await value(client, 'skillbook.get');
    expect(book.prompt).toBe(rt.book.asPrompt());
    expect(book.prompt).toContain('- [harness-00001]');
    const read = await value(client, 'read_skill', { skill_id: 'harness-00001' });
    expect(read.skill).toMatchObject({ id: 'harness-00001', insight: 'retry twice', active: true });
  });

  it('search - the active skills that match, best first, from the committed book only', async () => {
    await start();
    const client = await inMemoryClient(mcp, 'agent');
    await value(client, 'add_skill', { section: 'harness', issue: 'flaky network', insight: 'retry twice', keywords: ['network'] });
    await value(client, 'add_skill', { section: 'context', issue: 'dates', insight: 'ISO 8601 over the network' });
    const { task } = await value(client, 'task.begin');
    await value(client, 'add_skill', { task, section: 'harness', issue: 'network in a draft', insight: 'not found yet' });
    const found = await value(client, 'skillbook.search', { text: 'network' });
    expect((found.hits as { score: number; skill: { id: string } }[]).map((h) => [h.skill.id, h.score])).toEqual([
      ['harness-00001', 5],
      ['context-00002', 1],
    ]);
    expect((await call(client, 'skillbook.search', {})).isError).toBe(true);
  });

  it('task - writes stay in the draft until commit, then land with their final ids', async () => {
    await start();
    const [a, b] = [await inMemoryClient(mcp, 'a'), await inMemoryClient(mcp, 'b')];
    const { task } = await value(a, 'task.begin', { name: 'refactor' });
    const added = await value(a, 'add_skill', { task, section: 'context', issue: 'dates', insight: 'ISO 8601' });
    expect(rt.book.size).toBe(0);
    expect((await value(b, 'skillbook.get')).prompt).toBe('');
    expect((await value(a, 'skillbook.get', { task })).prompt).toContain('dates');
    const commit = await value(a, 'task.commit', { task });
    expect(commit).toMatchObject({ status: 'committed', added: [added.skill_id], landed: [`ADD ${added.skill_id}`], conflicts: [] });
    expect(rt.book.get(String(added.skill_id))?.issue).toBe('dates');
    expect(rt.audit.at(-1)?.name).toBe('a#1/refactor');
  });

  it('task - an aborted task writes nothing', async () => {
    await start();
    const client = await inMemoryClient(mcp, 'agent');
    const { task } = await value(client, 'task.begin');
    await value(client, 'add_skill', { task, section: 'harness', issue: 'x', insight: 'y' });
    const aborted = await value(client, 'task.abort', { task });
    expect(aborted).toMatchObject({ status: 'aborted', discarded: 1, added: [] });
    expect(rt.book.size).toBe(0);
    const late = await call(client, 'task.commit', { task });
    expect(late.isError).toBe(true);
  });

  it('conflict - two clients update the same skill: the first commit lands, the second gets its conflicts', async () => {
    await start();
    const [a, b] = [await inMemoryClient(mcp, 'a'), await inMemoryClient(mcp, 'b')];
    const { skill_id } = await value(a, 'add_skill', { section: 'context', issue: 'units', insight: 'SI' });
    const ta = (await value(a, 'task.begin')).task;
    const tb = (await value(b, 'task.begin')).task;
    await value(a, 'update_skill', { task: ta, skill_id, insight: 'SI, always' });
    await value(b, 'update_skill', { task: tb, skill_id, insight: 'imperial' });
    expect(await value(a, 'task.commit', { task: ta })).toMatchObject({ status: 'committed' });
    const lost = await call(b, 'task.commit', { task: tb });
    expect(lost.isError).toBe(true);
    expect(lost.structuredContent).toMatchObject({
      status: 'conflict',
      conflicts: [{ type: 'UPDATE', skillId: skill_id, reason: 'content_changed' }],
    });
    expect(rt.book.get(String(skill_id))?.insight).toBe('SI, always');
  });

  it('disconnect - a client that goes away has its open drafts dropped, and the log says so', async () => {
    await start();
    const client = await inMemoryClient(mcp, 'leaver');
    const { task } = await value(client, 'task.begin', { name: 'half-done' });
    await value(client, 'add_skill', { task, section: 'harness', issue: 'never lands', insight: 'x' });
    await client.close();
    await expect.poll(() => log.join('\n')).toMatch(/leaver#1 disconnected: dropped task .* \(leaver#1\/half-done\), 1 op/);
    expect(rt.book.size).toBe(0);
    expect(rt.liveSessions).toBe(0);
  });

  it('idle - a client idle past the timeout has its drafts dropped', async () => {
    await start({ idleTimeoutMs: 50 });
    const client = await inMemoryClient(mcp, 'sleepy');
    const { task } = await value(client, 'task.begin');
    await value(client, 'add_skill', { task, section: 'harness', issue: 'x', insight: 'y' });
    await expect.poll(() => log.join('\n')).toMatch(/sleepy#1 idle for 0 s: dropped task/);
    const late = await call(client, 'task.commit', { task });
    expect(late.isError).toBe(true);
    expect(JSON.stringify(late.content)).toMatch(/has ended: aborted \(the client idle/);
  });

  it('read-only - no task or write tools', async () => {
    await start({ readOnly: true });
    const client = await inMemoryClient(mcp, 'reader');
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['read_skill', 'skillbook.get', 'skillbook.search']);
    expect((await call(client, 'add_skill', { section: 'harness', issue: 'x' })).isError).toBe(true);
  });
});
