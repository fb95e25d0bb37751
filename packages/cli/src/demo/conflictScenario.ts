import type { DemoScenario } from './DemoScenario.ts';

/** Nested sessions, two of which change the same skill; a crash takes a merged grandchild with it. */
export const conflictScenario: DemoScenario = {
  title: 'Two sessions change the same skill',
  explanation: [
    "Sessions nest: a child commits into its parent's draft, and the whole subtree reaches the",
    'book when the parent commits. A planner runs an editor (updates the seed skill) and a pruner',
    "(removes it) in parallel. The pruner commits first, so the editor's commit is rejected as a",
    'conflict that names the skill, instead of silently overwriting. A flaky sibling of the',
    "planner merges a helper's skill, then crashes: neither reaches the book.",
  ].join('\n'),
  module: import.meta.url,
  body: async (root) => {
    const planner = root.spawn(
      async (p) => {
        await p.tools.add_skill({ section: 'harness', issue: 'plan before editing', insight: 'list the skills you touch' });
        const editor = p.spawn(
          async (s) => {
            await s.sleep(20);
            await s.tools.update_skill({ skill_id: 'context-00001', insight: 'never retry' });
          },
          { name: 'editor' },
        );
        const pruner = p.spawn(
          async (s) => {
            await s.sleep(5);
            await s.tools.remove_skill({ skill_id: 'context-00001', reason: 'superseded' });
          },
          { name: 'pruner' },
        );
        return Promise.all([editor, pruner]);
      },
      { name: 'planner' },
    );
    const flaky = root.spawn(
      async (f) => {
        await f.spawn(
          async (g) => {
            await g.tools.add_skill({ section: 'harness', issue: 'grandchild note', insight: 'lost with its parent' });
          },
          { name: 'helper' },
        );
        await f.sleep(30);
        throw new Error('flaky session crashed after its helper merged');
      },
      { name: 'flaky' },
    );
    return Promise.all([planner, flaky]);
  },
};
