import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { Skillbook } from '@cohort/skillbook';
import { addOp, makeCommit } from '@cohort/store/testing';
import { runCohort } from './utils/runCohort.ts';
import { useTempDirs } from '../../store/test/utils/tempDirs.ts';
import { openFileStore } from '../../store/test/utils/fileStores.ts';

const tempDir = useTempDirs('recover');

/**
 * A closed store of three skills, and beside it a recovery copy holding: a skill the live book
 * lacks (only in the copy, tagged twice), one the live book holds as it is, one it holds
 * otherwise, and one the live book lacks whose id the live book gave to another skill.
 */
async function storeWithCopy(): Promise<{ document: string; copy: string }> {
  const dir = await tempDir();
  const document = join(dir, 'skillbook.json');
  const store = await openFileStore(document);
  const made = makeCommit(store.book, [addOp('same'), addOp('differs'), addOp('third')], { at: Date.UTC(2026, 0, 1) });
  const appended = await store.append(made.commit);
  if (!appended.ok) throw new Error(appended.error.message);
  await store.close();
  const live = Skillbook.fromJSON(await readFile(document, 'utf8'));
  const copyBook = live.purge(['context-00003']).applyBatch(
    {
      operations: [
        { type: 'UPDATE', section: 'context', skill_id: 'context-00002', insight: 'the other side' },
        { type: 'ADD', section: 'context', skill_id: 'context-00009', issue: 'only in the copy', insight: 'bring me back' },
        { type: 'TAG', section: 'context', skill_id: 'context-00009', metadata: { delta: 1 } },
        { type: 'TAG', section: 'context', skill_id: 'context-00009', metadata: { delta: 1 } },
      ],
    },
    { clock: { now: () => Date.UTC(2026, 0, 2) } },
  );
  if (!copyBook.ok) throw new Error(copyBook.error.message);
  // a skill of another writer under an id the live book gave to 'third'
  const clash = Skillbook.empty().applyBatch(
    { operations: [{ type: 'ADD', section: 'context', skill_id: 'context-00003', issue: 'displaced', insight: 'x' }] },
    { clock: { now: () => Date.UTC(2026, 0, 3) } },
  );
  if (!clash.ok) throw new Error(clash.error.message);
  const both = copyBook.book.adopt({ skills: [...clash.book.skills()], purged: [], nextId: 0 });
  const copy = join(dir, 'skillbook.recovery-00112233aabbccdd.json');
  await writeFile(copy, both.toJSON());
  return { document, copy };
}

describe('cohort book recover', () => {
  it('book verify - counts the skills that live only in recovery copies', async () => {
    const { document } = await storeWithCopy();
    const text = await runCohort(['book', 'verify', document]);
    expect(text.code).toBe(0);
    expect(text.out).toContain('1 recovery copy, 2 skills only in copies');
    expect(text.out).toMatch(/skillbook\.recovery-00112233aabbccdd\.json: 4 skills, 2 only here, 1 the live book holds otherwise/);
    const json = JSON.parse((await runCohort(['book', 'verify', document, '--json'])).out) as {
      copies: { onlyInCopies: number };
      findings: { code: string }[];
    };
    expect(json.copies.onlyInCopies).toBe(2);
    expect(json.findings.map((f) => f.code)).toContain('skills_only_in_copies');
  });

  it('book recover - takes back the skills the live document lacks, as they were; shows the conflict it cannot take', async () => {
    const { document, copy } = await storeWithCopy();
    const run = await runCohort(['book', 'recover', document, copy]);
    expect(run.code).toBe(0);
    expect(run.out).toMatch(/taken\s+2 skills the live document lacked \(1 under a new id: context-00003 → context-00004\)/);
    expect(run.out).toMatch(/already there\s+1/);
    expect(run.out).toMatch(/not taken\s+1 skill the live document holds otherwise/);
    expect(run.out).toContain('live: insight for differs');
    expect(run.out).toContain('copy: the other side');
    const live = Skillbook.fromJSON(await readFile(document, 'utf8'));
    expect([...live.skills()].map((s) => s.issue)).toEqual(['same', 'differs', 'third', 'only in the copy', 'displaced']);
    expect(live.get('context-00009')).toMatchObject({
      issue: 'only in the copy',
      helpful_count: 2,
      created_at: '2026-01-02T00:00:00.000000+00:00',
    });
    expect(live.get('context-00002')?.insight).toBe('insight for differs');
    // nothing lives only in the copy any more; recovering it again takes nothing
    expect((await runCohort(['book', 'verify', document])).out).toContain('0 skills only in copies');
    const again = JSON.parse((await runCohort(['book', 'recover', document, copy, '--json'])).out) as {
      taken: unknown[];
      already: number;
      conflicts: { skillId: string }[];
    };
    expect([again.taken.length, again.already, again.conflicts.map((c) => c.skillId)]).toEqual([0, 3, ['context-00002']]);
  });

  it('book recover - a copy that is missing, not a Skillbook, or the document itself, and a missing store: exit 1, nothing written', async () => {
    const { document, copy } = await storeWithCopy();
    const before = await readFile(document, 'utf8');
    const missing = await runCohort(['book', 'recover', document, `${copy}.nope`]);
    expect([missing.code, missing.err]).toEqual([1, expect.stringContaining('it does not exist (unreadable_copy)')]);
    await writeFile(copy, '{"schema_version": "2", "skills": ');
    const torn = await runCohort(['book', 'recover', document, copy]);
    expect([torn.code, torn.err]).toEqual([1, expect.stringContaining('it is not a Skillbook document')]);
    const asJson = await runCohort(['book', 'recover', document, copy, '--json']);
    expect([asJson.code, JSON.parse(asJson.out)]).toEqual([
      1,
      { ok: false, error: expect.objectContaining({ code: 'unreadable_copy', file: copy }) },
    ]);
    const itself = await runCohort(['book', 'recover', document, document]);
    expect([itself.code, itself.err]).toEqual([1, expect.stringContaining('that is the document itself')]);
    const noStore = await runCohort(['book', 'recover', join(document, '..', 'other.json'), copy]);
    expect([noStore.code, noStore.err]).toEqual([1, expect.stringContaining('does not exist')]);
    expect(await readFile(document, 'utf8')).toBe(before);
    const usage = await runCohort(['book', 'recover', document]);
    expect(usage.code).toBe(2);
    expect(usage.err).toContain("missing required argument 'copy'");
  });
});
