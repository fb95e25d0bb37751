import { describe, expect, expectTypeOf, it } from 'vitest';
import { InsightSourceSchema } from '@cohort/skillbook';
import { type AddSkillArgs, callSkillTool, createRuntime, toolDefinitions, toolJsonSchemas } from '@cohort/runtime';
import type { SkillIdResult, SkillToolArgs, SkillTools } from '@cohort/runtime';
import { seededBook } from '../../../test/utils/books.ts';
import { acceptsNull, strictSchemaViolations } from './utils/strictSchemaRules.ts';

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
    expect(results.slice(0, 2)).toEqual([
      { ok: true, skill_id: 'harness-00002' },
      { ok: true, skill_id: 'context-00001' },
    ]);
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
        results.push(await callSkillTool(s.tools, 'add_skill', bad));
      }
      results.push(await callSkillTool(s.tools, 'tag_skill', { skill_id: 'x', tag: 'great' }));
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

  it('read null as absent, as a model in strict mode sends it, nested sources included', async () => {
    const rt = createRuntime({ book: seededBook() });
    const results: unknown[] = [];
    await rt.run(async (s) => {
      const source = {
        source_system: 'agent',
        trace_id: 't1',
        trace_uid: null,
        display_name: null,
        relation: null,
        sample_question: 'q?',
        epoch: null,
        operation_type: null,
        error_identification: null,
        learning_text: null,
      };
      results.push(
        await callSkillTool(s.tools, 'add_skill', {
          section: 'harness',
          issue: 'n',
          insight: 'x',
          keywords: null,
          skill_id: null,
          insight_source: [source],
        }),
      );
      results.push(
        await callSkillTool(s.tools, 'update_skill', {
          skill_id: 'context-00001',
          issue: null,
          insight: 'changed',
          keywords: null,
          insight_source: null,
        }),
      );
      results.push(await callSkillTool(s.tools, 'remove_skill', { skill_id: 'harness-00002', reason: null }));
    });
    expect(results).toEqual([
      { ok: true, skill_id: 'harness-00002' },
      { ok: true, skill_id: 'context-00001' },
      { ok: true, skill_id: 'harness-00002' },
    ]);
    expect(rt.book.get('context-00001')).toMatchObject({ issue: 'seed issue', insight: 'changed', keywords: ['seed'] });
    expect(rt.book.get('harness-00002')?.occurrences).toEqual([
      { trace_uid: 'agent:t1', source_system: 'agent', trace_id: 't1', display_name: 't1', sample_question: 'q?' },
    ]);
  });

  it('are typed from their zod schemas, and still check arguments at run time', async () => {
    expectTypeOf<SkillToolArgs['add_skill']>().toEqualTypeOf<import('zod').input<typeof AddSkillArgs>>();
    expectTypeOf<SkillTools['add_skill']>().returns.resolves.toEqualTypeOf<SkillIdResult>();
    const rt = createRuntime();
    const results: unknown[] = [];
    await rt.run(async (s) => {
      // @ts-expect-error a misspelled field is a type error
      results.push(await s.tools.add_skill({ sectoin: 'harness', issue: 'x', insight: 'y' }));
      // @ts-expect-error so is a tag outside the enum
      results.push(await s.tools.tag_skill({ skill_id: 'x', tag: 'great' }));
      // @ts-expect-error and a missing required field
      results.push(await s.tools.read_skill({}));
    });
    for (const r of results) expect(r).toEqual({ error: expect.stringMatching(/^invalid arguments: /) });
  });

  it('publish JSON Schemas for function calling', () => {
    const schemas = toolJsonSchemas();
    expect(schemas.map((s) => s.name)).toEqual(['add_skill', 'update_skill', 'remove_skill', 'tag_skill', 'read_skill']);
    expect(schemas[0]?.parameters).toMatchObject({ type: 'object', required: expect.arrayContaining(['section', 'issue']) });
  });

  it('publish schemas that OpenAI strict mode and Anthropic accept: optional fields nullable, the rest required', () => {
    for (const { name, parameters } of toolJsonSchemas()) {
      expect(strictSchemaViolations(parameters), name).toEqual([]);
      const shape = toolDefinitions[name].schema.shape as Record<string, import('zod').ZodType>;
      const properties = parameters['properties'] as Record<string, unknown>;
      expect(Object.keys(properties), name).toEqual(Object.keys(shape));
      for (const [key, field] of Object.entries(shape)) {
        expect(acceptsNull(properties[key]), `${name}.${key}`).toBe(field.safeParse(undefined).success);
      }
    }
  });

  it('describe every insight source field ACE reads, and only the two it needs are not nullable', () => {
    const add = toolJsonSchemas()[0]?.parameters as {
      properties: { insight_source: { anyOf: { type: string; properties?: Record<string, { description?: string }> }[] } };
    };
    const one = add.properties.insight_source.anyOf.find((b) => b.type === 'object');
    const fields = Object.keys(InsightSourceSchema.shape);
    expect(Object.keys(one?.properties ?? {}).sort()).toEqual([...fields].sort());
    for (const field of fields) {
      expect(one?.properties?.[field]?.description, field).toMatch(/\w/);
      expect(acceptsNull(one?.properties?.[field]), field).toBe(field !== 'source_system' && field !== 'trace_id');
    }
  });

  it('the rule checker refuses what providers refuse', () => {
    expect(strictSchemaViolations({ $schema: 'x', anyOf: [{ type: 'object' }] })).toEqual(
      expect.arrayContaining(['$: the root is not `type: "object"`', '$: a top-level anyOf', '$: has `$schema`']),
    );
    expect(
      strictSchemaViolations({
        type: 'object',
        properties: { a: { type: 'string', minLength: 1 }, b: { type: 'object', properties: {}, additionalProperties: {} } },
        required: ['a'],
        additionalProperties: false,
      }),
    ).toEqual(['$.b: not in required', '$.a: has `minLength`', '$.b: additionalProperties is not false']);
    expect(
      strictSchemaViolations({
        type: 'object',
        properties: { a: { type: ['string', 'null'] } },
        required: ['a'],
        additionalProperties: false,
      }),
    ).toEqual(['$.a: a type list (Anthropic documents anyOf for unions)']);
  });
});
