import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Skillbook } from '@cohort/skillbook';
import { AceSkillbook, nowIso } from './utils/aceSkillbook.ts';

const FIXTURE = new URL('../../skillbook/test/fixtures/ace-skillbook-v2.json', import.meta.url);
const cases = (JSON.parse(readFileSync(FIXTURE, 'utf8')) as { cases: { seed: number; final_text: string }[] }).cases;

describe('the model of ACE (test utility)', () => {
  it('aceSkillbook - loads and saves every document the reference ACE wrote byte for byte', () => {
    expect(cases.length).toBeGreaterThan(100);
    for (const c of cases) expect(AceSkillbook.loads(c.final_text).dumps(), `case ${c.seed}`).toBe(c.final_text);
  });

  it('aceSkillbook - allocates from the next_id it loaded, and Cohort reads what it saves as it is', () => {
    const book = AceSkillbook.loads(Skillbook.empty().reserveIds(6).toJSON());
    const a = book.addSkill('context', 'ace one', { insight: 'first' });
    const b = book.addSkill('Legacy Notes', 'ace two');
    book.tagSkill(a.id, 1);
    book.updateSkill(a.id, { insight: 'changed' });
    book.removeSkill(b.id);
    expect([a.id, b.id]).toEqual(['context-00007', 'context-00008']);
    expect(book.skills.get(b.id)).toMatchObject({ section: 'context', keywords: ['legacy_notes'], insight: 'ace two', active: false });
    const text = book.dumps();
    expect(Skillbook.fromJSON(text).toJSON()).toBe(text);
    expect(Skillbook.fromJSON(text).get(a.id)).toMatchObject({ insight: 'changed', helpful_count: 1 });
  });

  it('aceSkillbook - timestamps are what Python isoformat() writes', () => {
    expect(nowIso(Date.UTC(2026, 0, 2, 3, 4, 5, 6) + 0.789)).toBe('2026-01-02T03:04:05.006789+00:00');
    expect(nowIso(Date.UTC(2026, 0, 2, 3, 4, 5))).toBe('2026-01-02T03:04:05+00:00');
  });
});
