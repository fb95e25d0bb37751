import { Skillbook } from '@cohort/skillbook';
import { describe, expect, it } from 'vitest';
import { searchSkills } from '../src/index.ts';

function book(): Skillbook {
  const r = Skillbook.empty().applyBatch({
    operations: [
      { type: 'ADD', section: 'harness', issue: 'The network is flaky in CI', insight: 'retry twice', keywords: ['network'] },
      { type: 'ADD', section: 'context', issue: 'Dates are ambiguous', insight: 'use ISO 8601 on the network API', keywords: ['dates'] },
      { type: 'ADD', section: 'harness', issue: 'Builds are slow', insight: 'cache dependencies', keywords: ['ci', 'build_cache'] },
      { type: 'ADD', section: 'harness', issue: 'Network timeouts', insight: 'raise the timeout', keywords: ['network'] },
      { type: 'REMOVE', skill_id: 'harness-00004' },
    ],
  });
  if (!r.ok) throw new Error(r.error.message);
  return r.book;
}

describe('searchSkills', () => {
  it('search - a keyword outranks the issue, the issue outranks the insight; removed skills are left out', () => {
    const hits = searchSkills(book(), { text: 'network', limit: 10 });
    expect(hits.map((h) => [h.skill.id, h.score])).toEqual([
      ['harness-00001', 5],
      ['context-00002', 1],
    ]);
  });

  it('search - keywords match exactly, and a word of a keyword matches text', () => {
    expect(searchSkills(book(), { keywords: ['Build Cache'], limit: 10 }).map((h) => h.skill.id)).toEqual(['harness-00003']);
    expect(searchSkills(book(), { text: 'cache for ci', limit: 10 }).map((h) => h.skill.id)).toEqual(['harness-00003', 'harness-00001']);
  });

  it('search - section and limit narrow the results; nothing to look for finds nothing', () => {
    expect(searchSkills(book(), { text: 'network', section: 'context', limit: 10 }).map((h) => h.skill.id)).toEqual(['context-00002']);
    expect(searchSkills(book(), { text: 'network', limit: 1 })).toHaveLength(1);
    expect(searchSkills(book(), { text: '  ', limit: 10 })).toEqual([]);
  });
});
