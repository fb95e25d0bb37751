import type { DemoScenario } from './DemoScenario.ts';

/** Two sessions in parallel; one crashes halfway. Replays the bug ACE's recurse tool has. */
export const crashScenario: DemoScenario = {
  title: 'A crashed session leaves nothing behind',
  explanation: [
    'A root session starts two child sessions, A and B, that work at the same time. A adds two',
    "skills and improves the seed skill; B adds one skill, then crashes. In ACE, B's skill would",
    "stay in the shared book, A's and B's edits would interleave, and the parent would get the",
    'string "(child session failed: …)". In Cohort B\'s draft is thrown away, A\'s three changes',
    'land together in one audit entry, and the parent gets a structured failure.',
    '',
    "Skill ids skip a number: context-00003 went to B's skill, and was thrown away with it. An id",
    "is final the moment a skill is added (drawn from the runtime's id lease, a block of ids the",
    'book granted it alone), so no other session, or process, can ever be told the same one.',
  ].join('\n'),
  module: import.meta.url,
  body: async (root) => {
    const a = root.spawn(
      async (s) => {
        await s.tools.add_skill({ section: 'context', issue: 'a1: paginate large result sets', insight: 'use cursors' });
        await s.sleep(10);
        await s.tools.add_skill({ section: 'context', issue: 'a2: cache schema lookups', insight: 'memoise per run' });
        await s.sleep(10);
        await s.tools.update_skill({ skill_id: 'context-00001', insight: 'retry with exponential backoff and jitter' });
        return 'A finished';
      },
      { name: 'A' },
    );
    const b = root.spawn(
      async (s) => {
        await s.sleep(5);
        await s.tools.add_skill({ section: 'context', issue: 'b1-leaked', insight: 'must never reach the book' });
        await s.sleep(10);
        throw new Error('simulated sandbox/tool crash');
      },
      { name: 'B' },
    );
    return Promise.all([a, b]);
  },
};
