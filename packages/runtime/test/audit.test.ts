import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRuntime, isRuntimeError } from '@cohort/runtime';
import type { Runtime, Session } from '@cohort/runtime';
import { FileStore, MemoryStore, describeOpenError, replayHistory } from '@cohort/store';
import type { PersistedCommit } from '@cohort/store';
import { useTempDirs } from '../../store/test/utils/tempDirs.ts';

const tempDir = useTempDirs('rt-audit');

async function fileStore(): Promise<{ path: string; store: FileStore }> {
  const dir = await tempDir();
  const path = join(dir, 'skillbook.json');
  return { path, store: await reopen(path) };
}

async function reopen(path: string): Promise<FileStore> {
  const opened = await FileStore.open(path, { idleCheckpointMs: 0 });
  if (!opened.ok) throw new Error(describeOpenError(opened.error));
  return opened.store;
}

/** Every persisted commit, page by page. */
async function wholeHistory(rt: Runtime, limit = 2): Promise<PersistedCommit[]> {
  const out: PersistedCommit[] = [];
  for (let after: number | undefined; ; ) {
    const page = await rt.history({ ...(after === undefined ? {} : { after }), limit });
    if (!page.ok) throw new Error(page.error.message);
    out.push(...page.commits);
    if (page.next === null) return out;
    after = page.next;
  }
}

const add = (s: Session, issue: string) => s.tools.add_skill({ section: 'harness', issue, insight: 'x' });

describe('the durable audit - one block per session, read back from the store', () => {
  it("history - a root commit persists each session's block (id, path, name, ops, revision); a reopened runtime reads the same history", async () => {
    const { path, store } = await fileStore();
    const rt = createRuntime({ store });
    const outcome = await rt.run(
      async (root) => {
        await add(root, 'root');
        await root.spawn(
          async (planner) => {
            await add(planner, 'planner');
            await planner.spawn(async (editor) => add(editor, 'editor'), { name: 'editor' });
          },
          { name: 'planner' },
        );
      },
      { name: 'root' },
    );
    expect(outcome.status).toBe('committed');
    const [root, planner, editor] = [1, 2, 3].map((n) => `${rt.runtimeId}.${n}`);
    const history = await wholeHistory(rt);
    const commit = history.find((c) => c.kind === 'commit');
    expect(
      commit?.entries.map((b) => ({
        sessionId: b.sessionId,
        path: b.path,
        name: b.name,
        ops: b.ops.map((op) => op.issue),
        revision: b.revision,
      })),
    ).toEqual([
      { sessionId: root, path: [root], name: 'root', ops: ['root'], revision: 1 },
      { sessionId: planner, path: [root, planner], name: 'planner', ops: ['planner'], revision: 1 },
      { sessionId: editor, path: [root, planner, editor], name: 'editor', ops: ['editor'], revision: 1 },
    ]);
    const replayed = replayHistory(history);
    expect(replayed.ok && replayed.book.size).toBe(3);
    await rt.close();

    const again = createRuntime({ store: await reopen(path) });
    expect(rt.audit).toHaveLength(3);
    expect(again.audit).toEqual([]);
    expect(await wholeHistory(again, 1)).toEqual(history);
    await again.close();
  });

  it('audit window - rt.audit keeps only the newest auditWindow entries; the history keeps them all', async () => {
    const rt = createRuntime({ auditWindow: 3 });
    for (let i = 0; i < 10; i++) await rt.run(async (s) => add(s, `skill ${i}`));
    expect(rt.audit.map((e) => e.ops[0]?.issue)).toEqual(['skill 7', 'skill 8', 'skill 9']);
    expect(rt.audit.map((e) => e.revision)).toEqual([8, 9, 10]);
    expect((await wholeHistory(rt, 100)).filter((c) => c.kind === 'commit')).toHaveLength(10);
    await rt.close();
  });

  it('audit window - a window that is not a positive whole number (or Infinity) is a programmer error', () => {
    for (const auditWindow of [0, -1, 1.5, Number.NaN]) {
      let thrown: unknown;
      try {
        createRuntime({ auditWindow });
      } catch (e) {
        thrown = e;
      }
      expect(isRuntimeError(thrown, 'RUNTIME_INVALID_OPTIONS'), String(auditWindow)).toBe(true);
    }
    expect(createRuntime({ auditWindow: Number.POSITIVE_INFINITY }).audit).toEqual([]);
  });

  it('no-op REMOVE - removing a skill that is removed already is journaled nowhere: not in the store, not in rt.audit', async () => {
    const store = new MemoryStore();
    const rt = createRuntime({ store });
    await rt.run(async (s) => add(s, 'doomed'));
    const id = [...rt.book.skills()][0]?.id ?? '';
    // two roots remove it side by side; the second commit finds it removed
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    const late = rt.run(async (s) => {
      await s.tools.remove_skill({ skill_id: id });
      await gate;
    });
    await rt.run(async (s) => s.tools.remove_skill({ skill_id: id }));
    release();
    expect((await late).status).toBe('committed');
    // a child removes it while its parent already did
    await rt.run(async (s) => {
      await add(s, 'second');
      const second = [...s.book.skills()].find((k) => k.issue === 'second')?.id ?? '';
      let go = () => {};
      const wait = new Promise<void>((resolve) => (go = resolve));
      const child = s.spawn(async (c) => {
        await c.tools.remove_skill({ skill_id: second });
        await wait;
      });
      await s.tools.remove_skill({ skill_id: second });
      go();
      return child;
    });
    const removes = (ops: readonly { type: string }[]) => ops.filter((op) => op.type === 'REMOVE').length;
    expect(rt.audit.map((e) => removes(e.ops)).reduce((a, b) => a + b)).toBe(2);
    const history = await wholeHistory(rt, 100);
    expect(
      history
        .flatMap((c) => c.entries)
        .map((b) => removes(b.ops))
        .reduce((a, b) => a + b),
    ).toBe(2);
    expect(rt.revision).toBe(3);
    await rt.close();
  });
});
