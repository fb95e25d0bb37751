import { readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Skillbook } from '@cohort/skillbook';
import { inspectBook } from '@cohort/store';
import type { FileStore } from '@cohort/store';
import { addOp, makeCommit } from '@cohort/store/testing';
import { openFileStore } from './utils/fileStores.ts';
import { useTempDirs } from './utils/tempDirs.ts';

const tempDir = useTempDirs('surrogates');

/** A store that checkpoints after every commit. */
const open = (path: string): Promise<FileStore> => openFileStore(path, { checkpointEvery: 1 });

/** Every JSON string literal in a file's text (document, journal lines, snapshot, …) that contains `needle`, decoded. */
function stringsWith(text: string, needle: string): string[] {
  return (text.match(/"(?:[^"\\]|\\.)*"/g) ?? []).map((literal) => JSON.parse(literal) as string).filter((value) => value.includes(needle));
}

describe('FileStore and lone surrogates', () => {
  it('append - a commit whose text has a lone surrogate is refused as invalid_commit, naming where; nothing is written', async () => {
    const dir = await tempDir();
    const document = join(dir, 'skillbook.json');
    const store = await open(document);
    const journal = await readFile(`${document}.journal`, 'utf8').catch(() => '');
    const made = makeCommit(store.book, [addOp('lone \uD800 here')]);
    const r = await store.append(made.commit);
    expect(r.ok ? null : r.error).toMatchObject({
      code: 'invalid_commit',
      message: expect.stringContaining('issue: a lone surrogate (\\ud800) at character 5 is not Unicode text'),
    });
    expect(await readFile(`${document}.journal`, 'utf8').catch(() => '')).toBe(journal);
    expect(store.book.size).toBe(0);
    await store.close();
  });

  it('open - an ACE document with a lone surrogate escape reads as U+FFFD, the same in the journal, snapshot and document; reopening without the snapshot gives the same text', async () => {
    const dir = await tempDir();
    const document = join(dir, 'skillbook.json');
    const ace = Skillbook.empty().applyBatch({ operations: [{ type: 'ADD', section: 'context', issue: 'lone MARK here', insight: 'x' }] });
    if (!ace.ok) throw new Error(ace.error.message);
    await writeFile(document, ace.book.toJSON().replace('MARK', '\\ud800'));
    const store = await open(document);
    expect(store.book.get('context-00001')?.issue).toBe('lone \uFFFD here');
    const r = await store.append(makeCommit(store.book, [addOp('another')]).commit);
    expect(r.ok).toBe(true);
    await store.close();
    const holding: string[] = [];
    for (const name of await readdir(dir)) {
      const text = await readFile(join(dir, name), 'utf8');
      expect(text, name).not.toMatch(/\\ud800/i);
      const found = stringsWith(text, 'lone');
      if (!text.includes('lone')) continue;
      holding.push(name);
      expect(found.length, name).toBeGreaterThan(0);
      for (const s of found) expect(s, name).toContain('lone \uFFFD here');
    }
    expect(holding).toEqual(expect.arrayContaining(['skillbook.json', 'skillbook.json.snapshot']));
    await rm(`${document}.snapshot`);
    const again = await open(document);
    expect(again.book.get('context-00001')?.issue).toBe('lone \uFFFD here');
    await again.close();
    const report = await inspectBook(document);
    expect(report.findings.filter((f) => f.severity === 'damage')).toEqual([]);
  });
});
