import { describe, expect, it } from 'vitest';
import { createRuntime } from '@cohort/runtime';
import type { Runtime, Session } from '@cohort/runtime';
import { createMutantRuntime, RUNTIME_MUTATIONS } from '@cohort/runtime/testing';
import { MemoryStore } from '@cohort/store';

const note = (s: Session, issue: string) => s.tools.add_skill({ section: 'harness', issue, insight: 'x' });

/** A parent whose child writes, then fails: what the parent's draft saw at each step. */
async function failingChild(rt: Runtime): Promise<{ duringChild: number; afterChild: number; final: number }> {
  const seen = { duringChild: 0, afterChild: 0, final: 0 };
  await rt.run(async (parent) => {
    await parent.spawn(async (child) => {
      await note(child, 'child write');
      seen.duringChild = parent.book.size;
      throw new Error('child fails');
    });
    seen.afterChild = parent.book.size;
  });
  seen.final = rt.book.size;
  await rt.close();
  return seen;
}

describe("@cohort/runtime/testing - broken variants for the simulation's checker", () => {
  it('testing - the faithful runtime isolates a failing child', async () => {
    expect(await failingChild(createRuntime())).toEqual({ duringChild: 0, afterChild: 0, final: 0 });
  });

  it("testing - shared-draft lets a parent see its child's writes before any commit", async () => {
    expect((await failingChild(createMutantRuntime('shared-draft'))).duringChild).toBe(1);
  });

  it("testing - keep-failed-writes merges a failed child's writes into its parent", async () => {
    expect(await failingChild(createMutantRuntime('keep-failed-writes'))).toEqual({ duringChild: 0, afterChild: 1, final: 1 });
  });

  it('testing - interleaved-merge lands only half of a commit before the parent goes on', async () => {
    const rt = createMutantRuntime('interleaved-merge');
    let between = -1;
    await rt.run(async (parent) => {
      const child = parent.spawn(async (c) => {
        for (const issue of ['a', 'b', 'c', 'd']) await note(c, issue);
      });
      // the commit's first half lands in the merge step; the rest a timer later
      while (parent.book.size === 0) await new Promise((r) => setImmediate(r));
      between = parent.book.size;
      await child;
    });
    expect(between).toBe(2);
    expect(rt.book.size).toBe(4);
    await rt.close();
  });

  it('testing - unleased-ids lets two runtimes of one store hand out the same ids: the store renumbers the second', async () => {
    const store = new MemoryStore();
    const [a, b] = [createMutantRuntime('unleased-ids', { store }), createMutantRuntime('unleased-ids', { store })];
    const told = await Promise.all(
      [a, b].map(async (rt, i) => {
        const outcome = await rt.run(async (s) => note(s, `by ${i}`));
        return outcome.status === 'committed' && 'ok' in outcome.output ? outcome.output.skill_id : null;
      }),
    );
    expect(told[0]).toBe(told[1]);
    expect((await store.load()).book.size).toBe(2);
    await Promise.all([a.close(), b.close()]);
  });

  it('testing - flat-audit persists a root commit as one block of the root session', async () => {
    const store = new MemoryStore();
    const rt = createMutantRuntime('flat-audit', { store });
    await rt.run(async (parent) => {
      await note(parent, 'parent');
      await parent.spawn(async (child) => note(child, 'child'));
    });
    const page = await store.history();
    expect(page.ok && page.commits.map((c) => c.entries.map((b) => [b.path.length, b.ops.length]))).toEqual([[[1, 2]]]);
    expect(rt.audit.map((e) => e.path.length)).toEqual([1, 2]);
    await rt.close();
  });

  it('testing - names every mutation it offers', () => {
    expect(RUNTIME_MUTATIONS).toEqual(['shared-draft', 'interleaved-merge', 'keep-failed-writes', 'unleased-ids', 'flat-audit']);
  });
});
