import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createRuntime } from '@cohort/runtime';
import type { Runtime, SessionOutcome, SkillIdResult } from '@cohort/runtime';
import { FileStore, describeOpenError } from '@cohort/store';

const dirs: string[] = [];
afterEach(async () => {
  for (const d of dirs.splice(0)) await rm(d, { recursive: true, force: true });
});

async function open(path: string): Promise<FileStore> {
  const opened = await FileStore.open(path, { idleCheckpointMs: 0 });
  if (!opened.ok) throw new Error(describeOpenError(opened.error));
  return opened.store;
}

interface Told {
  readonly root: SessionOutcome;
  readonly child: SessionOutcome<SkillIdResult> | null;
}

/** The scenario of a new user: a root adds a skill and spawns a child that adds one, on each of two runtimes. */
async function rootAndChild(rt: Runtime, who: string): Promise<Told> {
  let child: SessionOutcome<SkillIdResult> | null = null;
  const root = await rt.run(async (s) => {
    await s.tools.add_skill({ section: 'harness', issue: `${who} root`, insight: 'x' });
    child = await s.spawn(async (c) => c.tools.add_skill({ section: 'harness', issue: `${who} child`, insight: 'x' }));
  });
  return { root, child };
}

describe('two runtimes on one file store', () => {
  it('remap scenario - each root spawns a child that adds: the id each child was told (tool result, outcome.added) holds its own skill', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cohort-remap-'));
    dirs.push(dir);
    const path = join(dir, 'skillbook.json');
    await (await open(path)).close();
    // two writers of one document, as two processes (or two stores of one process) are
    const a = createRuntime({ store: await open(path) });
    const b = createRuntime({ store: await open(path) });
    await Promise.all([a.ready, b.ready]);
    const [fromA, fromB] = await Promise.all([rootAndChild(a, 'A'), rootAndChild(b, 'B')]);
    await Promise.all([a.close(), b.close()]);

    const book = (await open(path)).book;
    expect(book.size).toBe(4);
    for (const [who, told] of [
      ['A', fromA],
      ['B', fromB],
    ] as const) {
      const { root, child } = told;
      if (root.status !== 'committed' || child?.status !== 'committed') throw new Error(`${who} did not commit`);
      const result = child.output;
      if (!('ok' in result)) throw new Error(result.error);
      expect(book.get(result.skill_id)?.issue).toBe(`${who} child`);
      expect(child.added).toEqual([result.skill_id]);
      expect(root.added.map((id) => book.get(id)?.issue).sort()).toEqual([`${who} child`, `${who} root`]);
    }
  });
});
