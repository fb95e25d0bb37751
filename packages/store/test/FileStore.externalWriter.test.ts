import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { Skillbook } from '@cohort/skillbook';
import { FileStore, describeOpenError } from '@cohort/store';
import type { StoreNotice } from '@cohort/store';
import { addOp, makeCommit } from '@cohort/store/testing';
import { childCommand, spawnMergeChild } from './utils/spawnMergeChild.ts';
import type { ChildCommand, MergeChild } from './utils/spawnMergeChild.ts';
import type { AceSave } from './utils/aceWriter.ts';

const WRITER = fileURLToPath(new URL('./utils/aceWriter.ts', import.meta.url));
const RECONCILED = new Set(['store.adopted', 'store.rebased', 'store.forked', 'store.force_saved']);

async function issuesIn(path: string): Promise<Set<string>> {
  const parsed = Skillbook.parse(await readFile(path, 'utf8'));
  if (!parsed.ok) throw new Error(`${path}: ${parsed.error.message}`);
  return new Set([...parsed.book.skills()].map((s) => s.issue));
}

/** Merges in this process while an ACE-like writer rewrites the document; returns what each side wrote and the notices. */
async function race(dir: string, mode: 'long-running' | 'reload', children: MergeChild[], bundles: ChildCommand[]) {
  const document = join(dir, 'skillbook.json');
  const opened = await FileStore.open(document, { checkpointEvery: 4, idleCheckpointMs: 15 });
  if (!opened.ok) throw new Error(describeOpenError(opened.error));
  const store = opened.store;
  const notices: StoreNotice[] = [];
  store.notices$.subscribe((n) => notices.push(n));
  const ours: string[] = [];
  let n = 0;
  const mergeOnce = async (): Promise<void> => {
    const issue = `ours-${mode}-${(n += 1)}`;
    const result = await store.append(makeCommit(store.book, [addOp(issue)], { basis: 'store', sessionId: issue }).commit);
    if (result.ok) ours.push(issue);
  };
  for (let i = 0; i < 6; i += 1) await mergeOnce();
  const command = await childCommand(WRITER);
  bundles.push(command);
  const writer = spawnMergeChild(
    { document, mode, saves: 30, sleepMs: [8, 16], seed: 3, prefix: `ace-${mode}`, chances: { update: 0, tag: 0, remove: 0 } },
    command,
  );
  children.push(writer);
  let done = false;
  void writer.closed.then(() => (done = true));
  while (!done) {
    await mergeOnce();
    await new Promise((resolve) => setTimeout(resolve, 3));
  }
  for (let i = 0; i < 4; i += 1) await mergeOnce();
  await store.close();
  const theirs = writer.lines.flatMap((l) =>
    l.kind === 'other' && l.text.startsWith('SAVED ') ? (JSON.parse(l.text.slice(6)) as AceSave).ops.map((o) => o.issue) : [],
  );
  return { document, ours, theirs, notices };
}

async function check(dir: string, result: Awaited<ReturnType<typeof race>>): Promise<StoreNotice[]> {
  const reconciled = result.notices.filter((x) => RECONCILED.has(x.type));
  expect(new Set(result.notices.map((x) => x.id)).size).toBe(result.notices.length);
  expect(reconciled.length).toBeGreaterThan(0);
  const main = await issuesIn(result.document);
  // both sides' skills are in the live document: the writer only added, so nothing conflicts and nothing goes to a copy
  for (const issue of result.theirs) expect(main.has(issue), `${issue} (theirs) is in the document`).toBe(true);
  for (const issue of result.ours) expect(main.has(issue), `${issue} (ours) is in the document`).toBe(true);
  expect((await readdir(dir)).filter((f) => f.includes('.recovery-'))).toEqual([]);
  return reconciled;
}

describe('FileStore with an external writer', () => {
  const children: MergeChild[] = [];
  const bundles: ChildCommand[] = [];
  const dirs: string[] = [];
  afterAll(async () => {
    for (const c of children) c.proc.kill('SIGKILL');
    for (const b of bundles) await b.dispose();
    for (const d of dirs) await rm(d, { recursive: true, force: true });
  });

  it('external writer - a long-running ACE saving from its own copy while we merge: every skill of both sides is in the live document', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cohort-ace-'));
    dirs.push(dir);
    const reconciled = await check(dir, await race(dir, 'long-running', children, bundles));
    // its copy lacks what we merged after it loaded: reconciled against its own last save, not taken as removals
    expect(reconciled.some((x) => 'base' in x && x.base?.source === 'external')).toBe(true);
  }, 30_000);

  it('external writer - ACE loading, changing and saving the document while we merge: every skill of both sides is in the live document', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cohort-ace-'));
    dirs.push(dir);
    await check(dir, await race(dir, 'reload', children, bundles));
  }, 30_000);
});
