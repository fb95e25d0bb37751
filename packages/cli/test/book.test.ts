import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileStore } from '@cohort/store';
import { addOp, makeCommit } from '@cohort/store/testing';
import { runCohort } from './utils/runCohort.ts';
import { useTempDirs } from '../../store/test/utils/tempDirs.ts';
import { openFileStore } from '../../store/test/utils/fileStores.ts';

const tempDir = useTempDirs('cli');

/** A store with three merged commits from a small session tree, closed. */
async function fixture(): Promise<string> {
  const dir = await tempDir();
  const document = join(dir, 'skillbook.json');
  const store = await openFileStore(document, { checkpointEvery: 2 });
  const paths = [
    ['root', 'planner'],
    ['root', 'planner', 'editor'],
    ['root', 'pruner'],
  ];
  for (const [i, path] of paths.entries()) {
    const sessionId = path[path.length - 1] ?? '';
    const r = await store.append(makeCommit(store.book, [addOp(`skill ${i}`)], { sessionId, path }).commit);
    if (!r.ok) throw new Error(r.error.message);
  }
  await store.close();
  return document;
}

/** `cohort book <args>`; `text` is what it printed on both streams. */
async function run(args: string[], tty = false): Promise<{ code: number; text: string; out: string; err: string }> {
  const r = await runCohort(['book', ...args], { tty });
  return { ...r, text: r.out + r.err };
}

describe('cohort book', () => {
  it('book show - prints the prompt view of the book, or JSON with --json', async () => {
    const document = await fixture();
    const shown = await run(['show', document]);
    expect(shown.code).toBe(0);
    expect(shown.text).toContain('skill 2');
    const json = await run(['show', document, '--json']);
    expect(JSON.parse(json.text)).toMatchObject({ document, revision: 3 });
  });

  it('book stats - prints an aligned summary, and the same numbers as JSON', async () => {
    const document = await fixture();
    const stats = await run(['stats', document]);
    expect(stats.code).toBe(0);
    expect(stats.text).toMatch(/skills\s+3 \(3 active\)/);
    const json = JSON.parse((await run(['stats', document, '--json'])).text);
    expect(json).toMatchObject({ revision: 3, skills: 3, journal: { commits: 3 }, recoveryCopies: [], lock: null });
  });

  it("book log - lists the audit journal with each commit's session path", async () => {
    const document = await fixture();
    const log = await run(['log', document]);
    expect(log.code).toBe(0);
    expect(log.text.split('\n').filter((l) => l.includes('ADD'))).toHaveLength(3);
    expect(log.text).toContain('root/planner/editor');
    const json = JSON.parse((await run(['log', document, '--json', '--limit', '2'])).text) as { path: string[] }[];
    expect(json.map((e) => e.path.join('/'))).toEqual(['root/planner/editor', 'root/pruner']);
  });

  it("book log - a commit of several sessions lists each session's block under it, as a tree of paths", async () => {
    const dir = await tempDir();
    const document = join(dir, 'skillbook.json');
    const store = await openFileStore(document);
    const child = makeCommit(store.book, [addOp('by the child')]);
    const own = makeCommit(child.book, [addOp('by the root')]);
    const blocks = [
      { sessionId: 'c', path: ['r', 'c'], ops: child.ops, at: 0 },
      { sessionId: 'r', path: ['r'], ops: own.ops, at: 0 },
    ];
    await store.append({ expectedRevision: 0, sessionId: 'r', path: ['r'], entries: blocks, at: 0 });
    await store.close();
    const lines = (await run(['log', document])).text.split('\n');
    const at = lines.findIndex((l) => l.includes('r1'));
    expect(lines[at + 1]?.trim()).toBe('r/c  ADD context-00001');
    expect(lines[at + 2]?.trim()).toBe('r  ADD context-00002');
    expect((lines[at + 1]?.length ?? 0) - (lines[at + 1]?.trimStart().length ?? 0)).toBeGreaterThan(
      (lines[at + 2]?.length ?? 0) - (lines[at + 2]?.trimStart().length ?? 0),
    );
    const json = JSON.parse((await run(['log', document, '--json'])).text) as { blocks: { path: string[] }[] }[];
    expect(json.at(-1)?.blocks.map((b) => b.path)).toEqual([['r', 'c'], ['r']]);
  });

  it('book verify - passes an intact store and fails, naming file and line, on a damaged journal', async () => {
    const document = await fixture();
    expect((await run(['verify', document])).code).toBe(0);
    const journal = `${document}.journal`;
    const lines = (await readFile(journal, 'utf8')).split('\n');
    // the second commit's record; its write starts on the line before (its group header)
    const at = lines.findIndex((l) => l.includes('skill 1'));
    lines[at] = (lines[at] ?? '').replace('skill 1', 'skill X');
    await writeFile(journal, lines.join('\n'));
    const damaged = await run(['verify', document]);
    expect(damaged.code).toBe(1);
    expect(damaged.text).toContain(`${journal}:${at}`);
    expect(damaged.text).toContain('corrupt_journal');
    const json = JSON.parse((await run(['verify', document, '--json'])).text);
    expect(json.ok).toBe(false);
  });

  it('book verify - a torn journal tail is damage that the next open cuts', async () => {
    const document = await fixture();
    const journal = `${document}.journal`;
    await writeFile(journal, `${await readFile(journal, 'utf8')}{"v":1,"t":"commit","rev":4`);
    const torn = await run(['verify', document]);
    expect(torn.code).toBe(1);
    expect(torn.text).toContain('torn_tail');
    const opened = await FileStore.open(document, { idleCheckpointMs: 0 });
    if (opened.ok) await opened.store.close();
    expect((await run(['verify', document])).code).toBe(0);
  });

  it('book show|stats|log - a torn journal is said on stderr, with how to repair it, and the book still prints', async () => {
    const document = await fixture();
    const journal = `${document}.journal`;
    await writeFile(journal, `${await readFile(journal, 'utf8')}{"v":1,"t":"commit","rev":4`);
    for (const command of ['show', 'stats', 'log']) {
      const r = await run([command, document]);
      expect([command, r.code]).toEqual([command, 0]);
      expect(r.err).toMatch(new RegExp(`^warning: ${document} has 1 problem \\(the book shown is what it opens to\\):\n  torn_tail: `));
      expect(r.err).toContain(
        `\`cohort book verify ${document}\` shows it; \`cohort book repair ${document} --yes\` repairs a damaged journal`,
      );
      expect(r.out).toContain(command === 'log' ? 'ADD' : '3');
    }
    expect((await run(['show', await fixture()])).err).toBe('');
  });

  it('book verify - the summary reads as a sentence: 1 problem, 2 problems', async () => {
    const document = await fixture();
    const journal = `${document}.journal`;
    await writeFile(journal, `${await readFile(journal, 'utf8')}{"v":1,"t":"commit","rev":4`);
    expect((await run(['verify', document])).out).toContain(`damaged: ${document} — 1 problem; nothing was changed`);
  });

  it('book - a usage error exits with 2', async () => {
    expect((await run(['show'])).code).toBe(2);
    expect((await run(['frobnicate', 'x.json'])).code).toBe(2);
    const limit = await run(['log', 'x.json', '--limit', '0']);
    expect(limit.code).toBe(2);
    expect(limit.err).toContain("option '--limit <n>' argument '0' is invalid");
  });

  it('book show <directory> - says it wants the document, not a raw EISDIR', async () => {
    const document = await fixture();
    const dir = join(document, '..');
    for (const command of ['show', 'stats', 'log', 'verify']) {
      const r = await run([command, dir]);
      expect(r.code, command).toBe(1);
      expect(r.err).toContain(`cohort book ${command}: ${dir} is a directory: give the store's document, e.g. ${document}`);
      expect(r.err).not.toContain('EISDIR');
      expect(r.out).toBe('');
    }
  });

  it('book log <missing file> - fails, naming the path, instead of printing an empty journal', async () => {
    for (const command of ['show', 'stats', 'log', 'verify']) {
      const r = await run([command, '/nonexistent/x.json']);
      expect(r.code, command).toBe(1);
      expect(r.err).toContain(`cohort book ${command}: /nonexistent/x.json does not exist`);
      expect(r.out).not.toContain('the journal is empty');
    }
  });

  it('book verify, book log - show progress on a terminal only, on stderr, and clear it', async () => {
    const document = await fixture();
    for (const command of ['verify', 'log']) {
      const tty = await run([command, document], true);
      expect(tty.code).toBe(0);
      expect(tty.err, command).toMatch(/\[[#.]{30}\] \d+% reading skillbook\.json/);
      expect(tty.err, command).toContain('\x1b[2K');
      expect(tty.out).not.toContain('\x1b');
      const piped = await run([command, document]);
      expect(piped.err).toBe('');
      expect(piped.out).not.toContain('\x1b');
    }
  });
});
