import { createHash } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRuntime } from '@cohort/runtime';
import { Skillbook } from '@cohort/skillbook';
import { FileStore, describeOpenError } from '@cohort/store';
import { runCohort } from './utils/runCohort.ts';
import { useTempDirs } from '../../store/test/utils/tempDirs.ts';

const tempDir = useTempDirs('cli-audit');

/** A store a runtime wrote: on a seeded document, root sessions whose children and grandchildren add, update and tag. */
async function written(): Promise<string> {
  const dir = await tempDir();
  const document = join(dir, 'skillbook.json');
  const seeded = Skillbook.empty().applyBatch({
    operations: [{ type: 'ADD', section: 'context', issue: 'seed', insight: 'seed insight' }],
  });
  if (!seeded.ok) throw new Error(seeded.error.message);
  await writeFile(document, seeded.book.toJSON());
  const opened = await FileStore.open(document, { idleCheckpointMs: 0 });
  if (!opened.ok) throw new Error(describeOpenError(opened.error));
  const rt = createRuntime({ store: opened.store, runtimeId: 'api' });
  for (const topic of ['dates', 'retries']) {
    const outcome = await rt.run(
      async (root) => {
        await root.tools.tag_skill({ skill_id: 'context-00001', tag: 'helpful' });
        await root.spawn(
          async (planner) => {
            const added = await planner.tools.add_skill({ section: 'context', issue: `${topic}: plan`, insight: 'x' });
            await planner.spawn(
              async (editor) => {
                if ('ok' in added) await editor.tools.update_skill({ skill_id: added.skill_id, insight: `${topic}: edited` });
              },
              { name: 'editor' },
            );
          },
          { name: 'planner' },
        );
      },
      { name: topic },
    );
    if (outcome.status !== 'committed') throw new Error(outcome.failure.message);
  }
  await rt.close();
  return document;
}

async function run(args: string[]): Promise<{ code: number; text: string }> {
  const r = await runCohort(['book', ...args]);
  return { code: r.code, text: r.out + r.err };
}

describe('cohort book on what a runtime wrote', () => {
  it("book log - each root commit, then its sessions' blocks as a tree of their paths; --json gives the blocks with ids, paths and names", async () => {
    const document = await written();
    const { code, text } = await run(['log', document]);
    expect(code).toBe(0);
    const lines = text.split('\n');
    const first = lines.findIndex((l) => /^ ?r1 /.test(l));
    // each session by its path and its name
    expect(lines[first]).toMatch(/ api\.1 \(dates\) *$/);
    expect(lines.slice(first + 1, first + 4).map((l) => l.trim())).toEqual([
      'api.1 (dates)  TAG context-00001',
      'api.1/api.2 (planner)  ADD context-00002',
      'api.1/api.2/api.3 (editor)  UPDATE context-00002',
    ]);
    // deeper sessions sit further right: the tree of session paths
    const indent = (l: string | undefined) => (l ?? '').length - (l ?? '').trimStart().length;
    expect(indent(lines[first + 3])).toBeGreaterThan(indent(lines[first + 2]));
    expect(indent(lines[first + 2])).toBeGreaterThan(indent(lines[first + 1]));
    const json = JSON.parse((await run(['log', document, '--json'])).text) as {
      kind: string;
      blocks: { sessionId: string; path: string[]; name?: string }[];
    }[];
    const commits = json.filter((e) => e.kind === 'commit');
    expect(commits.map((c) => c.blocks.map((b) => [b.path.join('/'), b.name]))).toEqual([
      [
        ['api.1', 'dates'],
        ['api.1/api.2', 'planner'],
        ['api.1/api.2/api.3', 'editor'],
      ],
      [
        ['api.4', 'retries'],
        ['api.4/api.5', 'planner'],
        ['api.4/api.5/api.6', 'editor'],
      ],
    ]);
  });

  it('book verify - replays the persisted audit, which gives the book (exit 0); an audit that does not is damage (exit 1), and nothing is written', async () => {
    const document = await written();
    const ok = await run(['verify', document]);
    expect(ok.code, ok.text).toBe(0);
    expect(ok.text).toMatch(/^ok: .* revision 2, 3 skills/m);
    // forge what the store says it was created with: replaying its history no longer gives the book
    const origin = `${document}.origin`;
    const bytes = await readFile(origin, 'utf8');
    const nl = bytes.indexOf('\n');
    const body = bytes.slice(nl + 1).replace('seed insight', 'forged insight');
    const header = { ...JSON.parse(bytes.slice(0, nl)), bodyDigest: createHash('sha256').update(body).digest('hex') };
    await writeFile(origin, `${JSON.stringify(header)}\n${body}`);
    const before = await readFile(document, 'utf8');
    const damaged = await run(['verify', document]);
    expect(damaged.code).toBe(1);
    expect(damaged.text).toContain('history_mismatch');
    expect(damaged.text).toContain('context-00001');
    const json = JSON.parse((await run(['verify', document, '--json'])).text) as {
      ok: boolean;
      findings: { code: string; severity: string }[];
    };
    expect(json.ok).toBe(false);
    expect(json.findings).toContainEqual(expect.objectContaining({ code: 'history_mismatch', severity: 'damage' }));
    expect(await readFile(document, 'utf8')).toBe(before);
  });
});
