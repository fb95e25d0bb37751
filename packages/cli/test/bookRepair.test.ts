import { readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileStore } from '@cohort/store';
import { addOp, makeCommit } from '@cohort/store/testing';
import { runCohort } from './utils/runCohort.ts';
import { useTempDirs } from '../../store/test/utils/tempDirs.ts';
import { openFileStore } from '../../store/test/utils/fileStores.ts';

const tempDir = useTempDirs('cli');

/** A store of five journaled commits (no checkpoint), the record of `skill 1` then damaged: it no longer opens. */
async function damagedStore(): Promise<string> {
  const dir = await tempDir();
  const document = join(dir, 'skillbook.json');
  const store = await openFileStore(document, { checkpointEvery: 1000 });
  let book = store.book;
  for (let i = 0; i < 5; i += 1) {
    const r = await store.append(makeCommit(book, [addOp(`skill ${i}`)], { sessionId: `s${i}` }).commit);
    if (!r.ok) throw new Error(r.error.message);
    book = r.book;
  }
  // a journal of a store that was not closed: copy it aside, close, put it back
  const journal = await readFile(`${document}.journal`);
  await store.close();
  const text = journal.toString('utf8');
  const at = Buffer.byteLength(text.slice(0, text.indexOf('skill 1"')));
  journal[at] = (journal[at] ?? 0) ^ 0x01;
  await writeFile(`${document}.journal`, journal);
  const ledger = JSON.parse(await readFile(`${document}.ledger`, 'utf8')) as { journalOffset: number };
  expect(ledger.journalOffset).toBeGreaterThan(at);
  return document;
}

describe('cohort book repair', () => {
  it('book repair - shows what the cut removes and changes nothing without --yes (exit 1)', async () => {
    const document = await damagedStore();
    const before = await readFile(`${document}.journal`);
    const shown = await runCohort(['book', 'repair', document]);
    expect(shown.code).toBe(1);
    expect(shown.out).toMatch(/the journal is damaged at line 3 \(byte \d+\)/);
    expect(shown.out).toMatch(/r3 +commit/);
    expect(shown.out).toContain('run again with --yes');
    expect(await readFile(`${document}.journal`)).toEqual(before);
    expect((await readdir(join(document, '..'))).some((n) => n.includes('damaged'))).toBe(false);
  });

  it('book repair --yes - keeps the whole journal as a backup, cuts it, and the store opens again', async () => {
    const document = await damagedStore();
    const before = await readFile(`${document}.journal`);
    expect((await FileStore.open(document)).ok).toBe(false);
    const cut = await runCohort(['book', 'repair', document, '--yes', '--json']);
    expect(cut.code).toBe(0);
    const report = JSON.parse(cut.out) as { applied: boolean; backup: string; repair: { line: number; movesLedger: boolean } };
    expect(report).toMatchObject({ applied: true, repair: { line: 3, movesLedger: true } });
    expect(await readFile(report.backup)).toEqual(before);
    const opened = await FileStore.open(document);
    expect(opened.ok).toBe(true);
    if (opened.ok) {
      // the document held every commit (the store was closed): nothing acknowledged is lost
      expect(opened.store.book.size).toBe(5);
      await opened.store.close();
    }
    expect(await runCohort(['book', 'repair', document])).toMatchObject({ code: 0, out: expect.stringContaining('nothing to repair') });
  });
});
