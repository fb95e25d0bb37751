import { describe, expect, it } from 'vitest';
import { createRuntime, toolJsonSchemas } from '@cohort/runtime';
import { seededBook } from '../../../test/utils/books.ts';

describe('tools', () => {
  it('return ACE result shapes', async () => {
    const rt = createRuntime({ book: seededBook() });
    const results: unknown[] = [];
    await rt.run(async (s) => {
      results.push(await s.tools.add_skill({ section: 'harness', issue: 'new', insight: 'x', keywords: ['A B'] }));
      results.push(await s.tools.update_skill({ skill_id: 'context-00001', insight: 'changed' }));
      results.push(await s.tools.tag_skill({ skill_id: 'context-00001', tag: 'helpful' }));
      results.push(await s.tools.tag_skill({ skill_id: 'context-00001', tag: 'harmful' }));
      results.push(await s.tools.remove_skill({ skill_id: 'context-00001' }));
      results.push(await s.tools.read_skill({ skill_id: 'harness-00002' }));
      results.push(await s.tools.update_skill({ skill_id: 'nope', insight: 'x' }));
    });
    expect(results.slice(0, 2)).toEqual([{ ok: true, skill_id: 'harness-00002' }, { ok: true, skill_id: 'context-00001' }]);
    expect(results[2]).toEqual({ ok: true, skill_id: 'context-00001', helpful_count: 1, harmful_count: 0, neutral_count: 0 });
    expect(results[3]).toEqual({ ok: true, skill_id: 'context-00001', helpful_count: 1, harmful_count: 1, neutral_count: 0 });
    expect(results[4]).toEqual({ ok: true, skill_id: 'context-00001' });
    expect(results[5]).toMatchObject({ ok: true, skill: { id: 'harness-00002', keywords: ['a_b'] } });
    expect(results[6]).toEqual({ error: 'skill not found: nope' });
    expect(rt.book.get('context-00001')?.active).toBe(false);
  });

  it('answer bad arguments with a zod error, never an exception', async () => {
    const rt = createRuntime();
    const results: unknown[] = [];
    await rt.run(async (s) => {
      for (const bad of [undefined, null, 42, 'x', [], { section: 'harness' }, { section: 'harness', issue: 'x', extra: 1 }]) {
        results.push(await s.tools.add_skill(bad));
      }
      results.push(await s.tools.tag_skill({ skill_id: 'x', tag: 'great' }));
    });
    expect(results).toHaveLength(8);
    for (const r of results) expect(r).toEqual({ error: expect.stringMatching(/^invalid arguments: /) });
    expect(rt.book.size).toBe(0);
  });

  it('report a refused batch with the failing op and leave the draft unchanged', async () => {
    const rt = createRuntime({ book: seededBook() });
    let result: unknown;
    await rt.run(async (s) => {
      result = s.applyBatch({ operations: [{ type: 'ADD', section: 'harness', issue: 'ok', insight: 'x' }, { type: 'BOGUS' }] });
    });
    expect(result).toMatchObject({ ok: false, error: { opIndex: 1 } });
    expect(rt.book.size).toBe(1);
  });

  it('publish JSON Schemas for function calling', () => {
    const schemas = toolJsonSchemas();
    expect(schemas.map((s) => s.name)).toEqual(['add_skill', 'update_skill', 'remove_skill', 'tag_skill', 'read_skill']);
    expect(schemas[0]?.parameters).toMatchObject({ type: 'object', required: expect.arrayContaining(['section', 'issue']) });
  });
});
