import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRuntime } from '@cohort/runtime';
import type { Runtime } from '@cohort/runtime';
import { Skillbook } from '@cohort/skillbook';
import { FileStore } from '@cohort/store';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ResourceListChangedNotificationSchema, ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { BOOK_URI, FollowedFileStore, SkillbookMcp, skillUri } from '../src/index.ts';
import { inMemoryClient, value } from './utils/clients.ts';

const cleanup: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

async function served(store?: FollowedFileStore): Promise<{ rt: Runtime; mcp: SkillbookMcp }> {
  const rt = createRuntime(store ? { store } : {});
  await rt.ready;
  const mcp = new SkillbookMcp({ runtime: rt, ...(store ? { store } : {}) });
  cleanup.push(async () => {
    await mcp.close();
    await rt.close();
  });
  return { rt, mcp };
}

/** A FileStore on `skillbook.json` in a fresh folder (removed after the test). */
async function storeInTempDir(): Promise<{ path: string; store: FileStore }> {
  const dir = await mkdtemp(join(tmpdir(), 'cohort-mcp-'));
  cleanup.push(() => rm(dir, { recursive: true, force: true }));
  const path = join(dir, 'skillbook.json');
  const opened = await FileStore.open(path, { idleCheckpointMs: 0 });
  if (!opened.ok) throw new Error(opened.error.message);
  return { path, store: opened.store };
}

/** A client of `mcp` subscribed to the book resource; `updated` collects the URIs it is told changed. */
async function bookWatcher(mcp: SkillbookMcp): Promise<{ client: Client; updated: string[] }> {
  const client = await inMemoryClient(mcp, 'watcher');
  const updated: string[] = [];
  client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void updated.push(n.params.uri));
  await client.subscribeResource({ uri: BOOK_URI });
  return { client, updated };
}

describe('resources', () => {
  it('resources - the book and each active skill are resources; a subscriber hears of a commit by another client', async () => {
    const { mcp } = await served();
    const [watcher, writer] = [await inMemoryClient(mcp, 'watcher'), await inMemoryClient(mcp, 'writer')];
    const updated: string[] = [];
    let listChanged = 0;
    watcher.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void updated.push(n.params.uri));
    watcher.setNotificationHandler(ResourceListChangedNotificationSchema, () => void listChanged++);
    await watcher.subscribeResource({ uri: BOOK_URI });
    const { skill_id } = await value(writer, 'add_skill', { section: 'harness', issue: 'flaky', insight: 'retry' });
    await expect.poll(() => updated).toContain(BOOK_URI);
    await expect.poll(() => listChanged).toBeGreaterThan(0);
    const { resources } = await watcher.listResources();
    expect(resources.map((r) => r.uri)).toEqual([BOOK_URI, skillUri(String(skill_id))]);
    const book = await watcher.readResource({ uri: BOOK_URI });
    expect(book.contents[0]).toMatchObject({ text: expect.stringContaining(`- [${skill_id}]`) });
    await watcher.subscribeResource({ uri: skillUri(String(skill_id)) });
    await value(writer, 'tag_skill', { skill_id, tag: 'helpful' });
    await expect.poll(() => updated).toContain(skillUri(String(skill_id)));
    const skill = await watcher.readResource({ uri: skillUri(String(skill_id)) });
    const [content] = skill.contents;
    expect(JSON.parse(content && 'text' in content ? content.text : '')).toMatchObject({ id: skill_id, helpful_count: 1 });
  });

  it('external - another writer of the same file changes the book: the subscriber is told, and reads the new book', async () => {
    const { path, store: mine } = await storeInTempDir();
    const { rt, mcp } = await served(new FollowedFileStore(mine, 20));
    const { client, updated } = await bookWatcher(mcp);

    // another writer: its own store and runtime on the same document, as another process would have
    const theirs = await FileStore.open(path, { idleCheckpointMs: 0 });
    if (!theirs.ok) throw new Error(theirs.error.message);
    const other = createRuntime({ store: theirs.store });
    const outcome = await other.run(async (s) => s.tools.add_skill({ section: 'harness', issue: 'learned elsewhere', insight: 'x' }));
    expect(outcome.status).toBe('committed');
    await other.close();

    await expect.poll(() => updated, { timeout: 10_000 }).toContain(BOOK_URI);
    expect(rt.book.size).toBe(1);
    expect((await value(client, 'skillbook.get')).prompt).toContain('learned elsewhere');
  });

  it('external - ACE saves the document: the subscriber is told, and the book holds what ACE added', async () => {
    const { path, store: mine } = await storeInTempDir();
    await mine.checkpoint();
    const { rt, mcp } = await served(new FollowedFileStore(mine, 20));
    const { updated } = await bookWatcher(mcp);

    // ACE loads the document, learns a skill and saves the whole document back
    const ace = Skillbook.fromJSON(await readFile(path, 'utf8')).applyBatch({
      operations: [{ type: 'ADD', section: 'context', issue: 'saved by ACE', insight: 'kept' }],
    });
    if (!ace.ok) throw new Error(ace.error.message);
    await writeFile(path, ace.book.toJSON());

    await expect.poll(() => updated, { timeout: 10_000 }).toContain(BOOK_URI);
    expect([...rt.book.skills()].map((s) => s.issue)).toEqual(['saved by ACE']);
  });
});
