import type { DemoScenario } from './DemoScenario.ts';

/** A session that outlives its time limit fails with kind `timeout`; its sibling is unaffected. */
export const timeoutScenario: DemoScenario = {
  title: 'A session that runs out of time',
  explanation: [
    'Agents wait on models and tools that sometimes never answer. Each session can have a time',
    'limit: "researcher" has 1 second, adds a skill, then waits 5 seconds for an answer. At 1 s',
    'it is stopped and fails with kind "timeout"; the skill it had added is discarded. Its',
    'sibling "tester" finishes in time and commits. (The clock is simulated: no real waiting.)',
  ].join('\n'),
  module: import.meta.url,
  body: async (root) => {
    const tester = root.spawn(
      async (s) => {
        await s.sleep(200);
        await s.tools.add_skill({ section: 'harness', issue: 'slow test suite', insight: 'run the changed package first' });
      },
      { name: 'tester' },
    );
    const researcher = root.spawn(
      async (s) => {
        await s.tools.add_skill({ section: 'context', issue: 'half-finished research', insight: 'never reaches the book' });
        await s.sleep(5_000); // a model call that does not answer
      },
      { name: 'researcher', timeoutMs: 1_000 },
    );
    return Promise.all([tester, researcher]);
  },
};
