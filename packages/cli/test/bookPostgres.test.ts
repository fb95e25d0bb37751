import { randomUUID } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import pg from 'pg';
import { Skillbook } from '@cohort/skillbook';
import { FileStore, describeOpenError } from '@cohort/store';
import type { Store } from '@cohort/store';
import { addOp, makeCommit } from '@cohort/store/testing';
import type { RawOp } from '@cohort/store/testing';
import { PostgresStore } from '@cohort/store-postgres';
import { runCohort } from './utils/runCohort.ts';

const PG_URL = process.env['COHORT_PG_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
const dirs: string[] = [];
const schemas: string[] = [];

async function sql(text: string): Promise<pg.QueryResultRow[]> {
  const client = new pg.Client({ connectionString: PG_URL });
  await client.connect();
  try {
    return (await client.query(text)).rows;
  } finally {
    await client.end();
  }
}

afterEach(async () => {
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
  for (const s of schemas.splice(0)) await sql(`DROP SCHEMA IF EXISTS "${s}" CASCADE`);
});

/** A fresh schema, and the store's URL naming it. */
function target(): { schema: string; url: string } {
  const schema = `cli_${randomUUID().replaceAll('-', '').slice(0, 12)}`;
  schemas.push(schema);
  return { schema, url: `${PG_URL}?schema=${schema}` };
}

/** An ACE document with three skills and a similarity decision, as ACE writes it. */
function aceDocument(): string {
  const made = makeCommit(Skillbook.empty(), [addOp('dates are ambiguous'), addOp('the API is flaky', 'harness'), addOp('logs are noisy')]);
  const decision =
    '{"context-00001,context-00003": {"decision": "KEEP", "reasoning": "different topics", "decided_at": "2026-01-02T03:04:05", "similarity_at_decision": 0.42}}';
  const text = made.book.toJSON().replace('"similarity_decisions": {}', () => `"similarity_decisions": ${decision}`);
  return Skillbook.fromJSON(text).toJSON();
}

/** The same commits, made on each store's own book: a nested block tree, tags, an update, a removal. */
const STEPS: readonly (readonly RawOp[])[] = [
  [addOp('retry with backoff', 'harness'), { type: 'TAG', section: 'context', skill_id: 'context-00001', metadata: { delta: 1 } }],
  [{ type: 'UPDATE', section: 'context', skill_id: 'context-00003', insight: 'filter by level' }],
  [{ type: 'REMOVE', section: 'harness', skill_id: 'harness-00002' }, addOp('ünïcode — “quotes”')],
];

async function applySteps(store: Store): Promise<void> {
  for (const [i, ops] of STEPS.entries()) {
    const book = (await store.load()).book;
    const r = await store.append(
      makeCommit(book, ops, { sessionId: `s${i}`, path: ['root', `s${i}`], at: Date.UTC(2026, 0, 2, 0, i) }).commit,
    );
    if (!r.ok) throw new Error(r.error.message);
  }
}

describe('cohort book with a PostgreSQL store', () => {
  it('book import + export - an ACE document goes in, and the export is byte for byte what the file store writes for the same book', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cohort-cli-pg-'));
    dirs.push(dir);
    const document = join(dir, 'skillbook.json');
    await writeFile(join(dir, 'ace.json'), aceDocument());
    await writeFile(document, aceDocument());
    const { url } = target();
    const imported = await runCohort(['book', 'import', join(dir, 'ace.json'), url]);
    expect([imported.code, imported.err]).toEqual([0, '']);
    expect(imported.out).toMatch(/imported .*: 3 skills, revision 1/);
    const file = await FileStore.open(document, { idleCheckpointMs: 0 });
    if (!file.ok) throw new Error(describeOpenError(file.error));
    await applySteps(file.store);
    await file.store.close();
    const opened = await PostgresStore.open({ url });
    if (!opened.ok) throw new Error(describeOpenError(opened.error));
    await applySteps(opened.store);
    await opened.store.close();
    const exported = await runCohort(['book', 'export', url]);
    expect(exported.code).toBe(0);
    expect(exported.out).toBe(await readFile(document, 'utf8'));
    expect(exported.out).toContain('"decision": "KEEP"');
    const out = join(dir, 'exported.json');
    expect((await runCohort(['book', 'export', url, '--out', out])).code).toBe(0);
    expect(await readFile(out, 'utf8')).toBe(exported.out);
  });

  it('book import - into a store that is not empty, or of a file that is not an ACE document, is refused and writes nothing', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cohort-cli-pg-'));
    dirs.push(dir);
    await writeFile(join(dir, 'ace.json'), aceDocument());
    await writeFile(join(dir, 'bad.json'), '{"schema_version": "2", "skills": [');
    const { url, schema } = target();
    expect((await runCohort(['book', 'import', join(dir, 'ace.json'), url])).code).toBe(0);
    const again = await runCohort(['book', 'import', join(dir, 'ace.json'), url]);
    expect([again.code, /not empty/.test(again.err)]).toEqual([1, true]);
    const other = target();
    const bad = await runCohort(['book', 'import', join(dir, 'bad.json'), other.url]);
    expect([bad.code, /invalid_request/.test(bad.err)]).toEqual([1, true]);
    expect(await sql(`SELECT count(*)::int AS n FROM "${schema}".commits`)).toEqual([{ n: 1 }]);
    expect(await sql(`SELECT count(*)::int AS n FROM "${other.schema}".commits`)).toEqual([{ n: 0 }]);
  });

  it('book show|stats|log|verify - accept a postgres:// URL with ?schema=; verify finds a skills table that the commits do not replay to', async () => {
    const { url, schema } = target();
    const opened = await PostgresStore.open({ url });
    if (!opened.ok) throw new Error(describeOpenError(opened.error));
    const r = await opened.store.append(
      makeCommit(opened.store.book, [addOp('first skill')], { sessionId: 'planner', path: ['root', 'planner'] }).commit,
    );
    expect(r.ok).toBe(true);
    await opened.store.close();
    const shown = await runCohort(['book', 'show', url]);
    expect([shown.code, shown.out.includes('first skill')]).toEqual([0, true]);
    const stats = JSON.parse((await runCohort(['book', 'stats', url, '--json'])).out) as {
      revision: number;
      skills: number;
      journal: { commits: number };
    };
    expect(stats).toMatchObject({ revision: 1, skills: 1, journal: { commits: 1 } });
    // the text speaks of what a PostgreSQL store has: its commits, not a journal file, copies or a lock file
    const text = (await runCohort(['book', 'stats', url])).out;
    expect(text).toMatch(/^\s+commits\s+1$/m);
    expect(text).not.toMatch(/bytes|recovery copies|^\s+lock|document at/m);
    const log = await runCohort(['book', 'log', url]);
    expect([log.code, /root\/planner\s+ADD context-00001/.test(log.out)]).toEqual([0, true]);
    const verified = await runCohort(['book', 'verify', url]);
    expect([verified.code, verified.out.startsWith('ok: ')]).toEqual([0, true]);
    await sql(`UPDATE "${schema}".skills SET issue = 'changed behind Cohort''s back'`);
    const damaged = await runCohort(['book', 'verify', url, '--json']);
    expect(damaged.code).toBe(1);
    expect((JSON.parse(damaged.out) as { findings: { code: string }[] }).findings.map((f) => f.code)).toEqual(['history_mismatch']);
  });

  it('book stats - counts the refused commits of the conflict log, beside its notices', async () => {
    const { url } = target();
    const opened = await PostgresStore.open({ url });
    if (!opened.ok) throw new Error(describeOpenError(opened.error));
    const store = opened.store;
    expect((await store.append(makeCommit(store.book, [addOp('hot')]).commit)).ok).toBe(true);
    const base = store.book;
    const update = (insight: string) =>
      makeCommit(base, [{ type: 'UPDATE', section: 'context', skill_id: 'context-00001', insight }], { basis: 'store' }).commit;
    expect((await store.append(update('first'))).ok).toBe(true);
    expect((await store.append(update('second'))).ok).toBe(false);
    await store.close();
    const text = (await runCohort(['book', 'stats', url])).out;
    expect(text).toMatch(/^\s+conflict log\s+1 record: 1 refused commit, 0 notices$/m);
    expect(JSON.parse((await runCohort(['book', 'stats', url, '--json'])).out)).toMatchObject({ conflictLogRecords: 1, refusedCommits: 1 });
  });

  it('book - a URL to a store that does not exist is an error on stderr (exit 1), and nothing is created', async () => {
    const { url, schema } = target();
    for (const command of ['show', 'stats', 'log', 'verify', 'export']) {
      const r = await runCohort(['book', command, url]);
      expect([command, r.code, /missing_document/.test(r.err)]).toEqual([command, 1, true]);
    }
    expect(await sql(`SELECT 1 FROM pg_namespace WHERE nspname = '${schema}'`)).toHaveLength(0);
  });
});
