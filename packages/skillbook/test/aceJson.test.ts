import { describe, expect, it } from 'vitest';
import { Skillbook } from '../src/index.ts';
import { fixedClock } from './utils/fixture.ts';

function doc(parts: Record<string, string>): string {
  const body = Object.entries({ schema_version: '"2"', ...parts }).map(([k, v]) => `"${k}": ${v}`);
  return `{${body.join(', ')}}`;
}

function skill(id: string, extra = ''): string {
  return `"${id}": {"id": "${id}", "section": "harness", "issue": "i", "created_at": "t", "updated_at": "t"${extra}}`;
}

describe('ACE document JSON - writing', () => {
  it('writes strings as Python does: non-ASCII and U+2028 raw, controls as lowercase \\u escapes, lone surrogates raw', () => {
    const r = Skillbook.empty().applyBatch({
      operations: [{ type: 'ADD', section: 'harness', issue: 'ünï 🚀 \u2028 \x1c "q" \\ \ud800 end', skill_id: 'h' }],
    });
    const text = r.book.toJSON();
    expect(text).toContain('"issue": "ünï 🚀 \u2028 \\u001c \\"q\\" \\\\ \ud800 end"');
    expect(text.endsWith('}')).toBe(true);
  });

  it('keeps integer-like skill ids in insertion order (a JS object would move them first)', () => {
    const text = doc({ skills: `{${skill('b')}, ${skill('12')}, ${skill('7')}}` });
    const b = Skillbook.fromJSON(text);
    expect([...b.skills()].map((s) => s.id)).toEqual(['b', '12', '7']);
    expect(b.toJSON().indexOf('"12": {')).toBeLessThan(b.toJSON().indexOf('"7": {'));
  });

  it('writes similarity decisions back exactly: floats stay floats, big ints exact, pair keys sorted', () => {
    const decisions = `{"b,a": {"decision": "KEEP", "reasoning": ["r", 1.50, null], "decided_at": "t", "similarity_at_decision": 1.0},
      "c,d": {"similarity_at_decision": 1e-05, "decision": "KEEP", "reasoning": "r", "decided_at": 123456789012345678901234567890},
      "a,b": {"decision": "KEEP", "reasoning": "again", "decided_at": "t2", "similarity_at_decision": NaN}}`;
    const b = Skillbook.fromJSON(doc({ skills: '{}', similarity_decisions: decisions }));
    const text = b.toJSON();
    expect(text).toContain(
      [
        '  "similarity_decisions": {',
        '    "a,b": {',
        '      "decision": "KEEP",',
        '      "reasoning": "again",',
        '      "decided_at": "t2",',
        '      "similarity_at_decision": NaN',
        '    },',
        '    "c,d": {',
        '      "decision": "KEEP",',
        '      "reasoning": "r",',
        '      "decided_at": 123456789012345678901234567890,',
        '      "similarity_at_decision": 1e-05',
        '    }',
        '  }',
      ].join('\n'),
    );
    expect(Skillbook.fromJSON(text).toJSON()).toBe(text);
  });

  it('passes a 1.0 similarity through as 1.0', () => {
    const decisions = '{"a,b": {"decision": "KEEP", "reasoning": [1.50, 2], "decided_at": "t", "similarity_at_decision": 1.0}}';
    const text = Skillbook.fromJSON(doc({ similarity_decisions: decisions })).toJSON();
    expect(text).toContain('"similarity_at_decision": 1.0');
    expect(text).toContain('"reasoning": [\n        1.5,\n        2\n      ]');
  });
});

describe('ACE document JSON - reading', () => {
  it('normalises as ACE loads: schema_version 2 as a number, text trimmed, keywords, legacy sections, missing counts', () => {
    const b = Skillbook.fromJSON(
      '{"schema_version": 2, "skills": {"old-1": {"id": "old-1", "section": "Old Free Form", "keywords": [" Units "], "issue": " i ", "insight": " ", "active": 0, "helpful_count": 2, "created_at": "t", "updated_at": "u", "extra_field": 1}}, "sections": {}, "next_id": "0", "similarity_decisions": {}}',
    );
    expect(b.get('old-1')).toEqual({
      id: 'old-1',
      section: 'context',
      keywords: ['old_free_form', 'units'],
      issue: 'i',
      occurrences: [],
      active: false,
      used_count: 0,
      helpful_count: 2,
      harmful_count: 0,
      neutral_count: 0,
      created_at: 't',
      updated_at: 'u',
    });
    expect(b.toJSON()).toContain('"schema_version": "2"');
    expect(JSON.parse(b.toJSON()).sections).toEqual({ context: ['old-1'] });
  });

  it('keeps sections as written (unknown names, order, dangling ids) and rebuilds them only when empty', () => {
    const b = Skillbook.fromJSON(doc({ skills: `{${skill('h-1')}}`, sections: '{"Legacy": ["h-1"], "harness": ["ghost", "h-1"]}' }));
    expect(JSON.parse(b.toJSON()).sections).toEqual({ Legacy: ['h-1'], harness: ['ghost', 'h-1'] });
    // ACE's as_prompt would raise a KeyError on the dangling id; Cohort skips it
    expect(b.asPrompt()).toBe('## harness\n- [h-1]\n  Keywords: harness\n  Issue: i');
    const rebuilt = Skillbook.fromJSON(doc({ skills: `{${skill('h-1')}}`, sections: '{}' }));
    expect(JSON.parse(rebuilt.toJSON()).sections).toEqual({ harness: ['h-1'] });
  });

  it('raises next_id to the highest numeric suffix of any <letters>-<digits> id', () => {
    const b = Skillbook.fromJSON(
      doc({ skills: `{${skill('harness-00007')}, ${skill('x_y-12')}, ${skill('99')}, ${skill('a-b-3')}}`, next_id: '2' }),
    );
    expect(b.nextId).toBe(12);
  });

  it('fills a missing created_at / updated_at from the clock, as ACE does with the current time', () => {
    const b = Skillbook.fromJSON(doc({ skills: '{"h": {"id": "h", "section": "harness", "issue": "i"}}' }), { clock: fixedClock(0) });
    expect(b.get('h')).toMatchObject({ created_at: '1970-01-01T00:00:00.000000+00:00', updated_at: '1970-01-01T00:00:00.000000+00:00' });
  });

  it.each([
    ['[]', '', 'Skillbook serialization must be a JSON object.'],
    [doc({ skills: '[]' }), 'skills', 'skills: expected an object'],
    [doc({ skills: '{"a": 5}' }), 'skills.a', 'skills.a: expected a skill object'],
    [doc({ skills: '{"a": {"issue": "i"}}' }), 'skills.a.id', 'skills.a.id: expected the skill id (a string)'],
    [doc({ skills: '{"a": {"id": "b", "issue": "i"}}' }), 'skills.a.id', 'skills.a.id: the id "b" does not match its key'],
    [doc({ skills: '{"a": {"id": "a", "issue": ""}}' }), 'skills.a.issue', 'skills.a.issue: issue is required and must be non-empty'],
    [
      doc({ skills: '{"a": {"id": "a", "issue": "i", "section": " "}}' }),
      'skills.a.section',
      'skills.a.section: section is required and must be non-empty',
    ],
    [
      doc({ skills: '{"a": {"id": "a", "issue": "i", "used_count": 1.0}}' }),
      'skills.a.used_count',
      'skills.a.used_count: expected an integer (a count)',
    ],
    [
      doc({ skills: '{"a": {"id": "a", "issue": "i", "created_at": 5}}' }),
      'skills.a.created_at',
      'skills.a.created_at: expected a timestamp (a string)',
    ],
    [doc({ sections: '{"context": "a"}' }), 'sections.context', 'sections.context: expected a list of skill ids'],
    [doc({ sections: '{"context": [7]}' }), 'sections.context[0]', 'sections.context[0]: expected a skill id (a string)'],
    [doc({ next_id: '"x"' }), 'next_id', "next_id: invalid literal for int() with base 10: 'x'"],
    [
      doc({ similarity_decisions: '{"a,b": {"decision": "KEEP"}}' }),
      'similarity_decisions.a,b',
      expect.stringContaining('expected exactly the keys'),
    ],
  ])('refuses a bad document, naming the path: %s', (text, path, message) => {
    const r = Skillbook.parse(text);
    expect(r.ok ? null : r.error).toEqual({ code: 'invalid_document', path, message });
  });

  it('refuses text that is not JSON, with the position', () => {
    const r = Skillbook.parse('{"schema_version": "2",}');
    expect(r.ok ? null : r.error).toEqual({
      code: 'invalid_json',
      message: 'the document is not valid JSON: Expecting property name enclosed in double quotes: line 1 column 24 (char 23)',
    });
    expect(Skillbook.parse('\ufeff{}').ok).toBe(false);
  });
});
