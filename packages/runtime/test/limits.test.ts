import { describe, expect, it } from 'vitest';
import { Skillbook } from '@cohort/skillbook';
import { callSkillTool, createRuntime, defaultLimits, operationLimits, toolJsonSchemas } from '@cohort/runtime';
import type { Session, SkillToolName, ToolResult } from '@cohort/runtime';
import { loadCases } from '../../skillbook/test/utils/fixture.ts';
import { strictSchemaViolations } from './utils/strictSchemaRules.ts';

const MB = 1024 * 1024;
const source = { source_system: 'agent', trace_id: 't1' };

/** Each oversized argument the tools accepted before they had limits, and the limit that now refuses it. */
const OVERSIZED: readonly {
  readonly what: string;
  readonly tool: SkillToolName;
  readonly args: Record<string, unknown>;
  readonly field: RegExp;
  readonly limit: string;
}[] = [
  {
    what: 'a 10 MB insight',
    tool: 'add_skill',
    args: { section: 'context', issue: 'x', insight: 'i'.repeat(10 * MB) },
    field: /insight/,
    limit: 'maxTextLength',
  },
  {
    what: 'a 50 MB issue',
    tool: 'add_skill',
    args: { section: 'context', issue: 'i'.repeat(50 * MB), insight: 'y' },
    field: /issue/,
    limit: 'maxTextLength',
  },
  {
    what: '100k keywords',
    tool: 'add_skill',
    args: { section: 'context', issue: 'x', insight: 'y', keywords: Array.from({ length: 100_000 }, (_, i) => `k${i}`) },
    field: /keywords/,
    limit: 'maxKeywords',
  },
  {
    what: '100k insight sources',
    tool: 'add_skill',
    args: { section: 'context', issue: 'x', insight: 'y', insight_source: Array.from({ length: 100_000 }, () => source) },
    field: /insight_source/,
    limit: 'maxSources',
  },
  {
    what: 'a 1 MB skill_id',
    tool: 'add_skill',
    args: { section: 'context', issue: 'x', insight: 'y', skill_id: 'a'.repeat(MB) },
    field: /skill_id/,
    limit: 'maxIdLength',
  },
  {
    what: 'a 1 MB section name',
    tool: 'add_skill',
    args: { section: 's'.repeat(MB), issue: 'x', insight: 'y' },
    field: /section/,
    limit: 'maxIdLength',
  },
  {
    what: 'a 1 MB keyword',
    tool: 'add_skill',
    args: { section: 'context', issue: 'x', insight: 'y', keywords: ['k'.repeat(MB)] },
    field: /keywords/,
    limit: 'maxKeywordLength',
  },
  {
    what: 'a 1 MB learning text',
    tool: 'tag_skill',
    args: { skill_id: 'context-00001', tag: 'helpful', insight_source: { ...source, learning_text: 'l'.repeat(MB) } },
    field: /learning_text/,
    limit: 'maxTextLength',
  },
  {
    what: 'a 10 MB update',
    tool: 'update_skill',
    args: { skill_id: 'context-00001', insight: 'u'.repeat(10 * MB) },
    field: /insight/,
    limit: 'maxTextLength',
  },
  {
    what: 'a 10 MB reason',
    tool: 'remove_skill',
    args: { skill_id: 'context-00001', reason: 'r'.repeat(10 * MB) },
    field: /reason/,
    limit: 'maxTextLength',
  },
];

const seed = Skillbook.empty().applyBatch({ operations: [{ type: 'ADD', section: 'context', issue: 'seed', insight: 'seed' }] });

describe('limits at the tool boundary', () => {
  it('limits - oversized tool arguments are refused with an error naming the field and the limit, and nothing reaches the book', async () => {
    if (!seed.ok) throw new Error('seed');
    const rt = createRuntime({ book: seed.book });
    const results: ToolResult[] = [];
    const outcome = await rt.run(async (s) => {
      for (const { tool, args } of OVERSIZED) results.push(await callSkillTool(s.tools, tool, args));
    });
    expect(outcome.status).toBe('committed');
    for (const [i, { what, field, limit }] of OVERSIZED.entries()) {
      const r = results[i] as { error?: string };
      expect(r.error, what).toMatch(field);
      expect(r.error, what).toContain(`limits.${limit}`);
      expect(r.error, what).toContain(String(defaultLimits[limit as keyof typeof defaultLimits]));
    }
    expect(rt.book.toJSON()).toBe(seed.book.toJSON());
    await rt.close();
  });

  it("limits - a session's applyBatch is held to them too: limit_exceeded, naming the operation's field", async () => {
    const rt = createRuntime();
    const refused = await rt.run(async (s) =>
      s.applyBatch({
        operations: [
          { type: 'ADD', section: 'context', issue: 'fine', insight: 'fine' },
          { type: 'ADD', section: 'context', issue: 'x', insight: 'i'.repeat(defaultLimits.maxTextLength + 1) },
        ],
      }),
    );
    expect(refused.status === 'committed' && refused.output).toMatchObject({
      ok: false,
      error: { code: 'limit_exceeded', opIndex: 1, path: 'operations.1.insight', message: expect.stringContaining('maxTextLength') },
    });
    expect(rt.book.size).toBe(0);
    await rt.close();
  });

  it("limits - are configurable: what a runtime's own limits allow is what its tools, batches and schemas allow", async () => {
    const rt = createRuntime({ limits: { maxTextLength: 10, maxKeywords: 1 } });
    const outcome = await rt.run(async (s) => [
      await s.tools.add_skill({ section: 'context', issue: 'ten chars.', insight: 'ok' }),
      await s.tools.add_skill({ section: 'context', issue: 'eleven char', insight: 'no' }),
      await s.tools.add_skill({ section: 'context', issue: 'x', insight: 'y', keywords: ['a', 'b'] }),
      s.applyBatch({ operations: [{ type: 'ADD', section: 'context', issue: 'eleven char' }] }).ok,
      s.limits.maxTextLength,
    ]);
    expect(outcome.status === 'committed' && outcome.output).toEqual([
      { ok: true, skill_id: 'context-00001' },
      { error: expect.stringContaining('limits.maxTextLength') },
      { error: expect.stringContaining('limits.maxKeywords') },
      false,
      10,
    ]);
    const [add] = toolJsonSchemas({ limits: { maxTextLength: 10 }, strict: false });
    expect(add?.parameters).toMatchObject({ properties: { issue: { maxLength: 10 } } });
    await rt.close();
    const wide = createRuntime({ limits: { maxTextLength: 100_000 } });
    const big = await wide.run(async (s) => s.tools.add_skill({ section: 'context', issue: 'x', insight: 'i'.repeat(50_000) }));
    expect(big.status === 'committed' && big.output).toEqual({ ok: true, skill_id: 'context-00001' });
    await wide.close();
  });

  it("limits - a commit carrying more than maxCommitBytes of text fails with limit_exceeded, its own writes or its children's", async () => {
    const rt = createRuntime({ limits: { maxCommitBytes: 2_000 } });
    const own = await rt.run(async (s) => {
      for (let i = 0; i < 3; i += 1) await s.tools.add_skill({ section: 'context', issue: `issue ${i}`, insight: 'é'.repeat(400) });
    });
    expect(own).toMatchObject({
      status: 'failed',
      failure: { kind: 'limit_exceeded', message: expect.stringContaining('maxCommitBytes') },
    });
    const merged = await rt.run(async (s) => {
      const children = await Promise.all(
        [0, 1, 2].map((i) =>
          s.spawn(async (c) => c.tools.add_skill({ section: 'context', issue: `child ${i}`, insight: 'x'.repeat(800) })),
        ),
      );
      return children.map((c) => c.status);
    });
    expect(merged).toMatchObject({ status: 'failed', failure: { kind: 'limit_exceeded' } });
    const fits = await rt.run(async (s) => s.tools.add_skill({ section: 'context', issue: 'small', insight: 'x'.repeat(800) }));
    expect(fits.status).toBe('committed');
    expect(rt.book.size).toBe(1);
    await rt.close();
  });

  it('limits - a session name longer than maxIdLength is refused as limit_exceeded, at rt.run and at spawn; nothing commits', async () => {
    const rt = createRuntime({ limits: { maxIdLength: 16 } });
    const long = 'n'.repeat(1_000);
    const write = async (s: Session) => s.tools.add_skill({ section: 'context', issue: 'x', insight: 'y' });
    const root = await rt.run(write, { name: long });
    const refused = {
      status: 'failed',
      failure: { kind: 'limit_exceeded', message: expect.stringContaining('at most 16 (limits.maxIdLength)') },
    };
    expect(root).toMatchObject(refused);
    const child = await rt.run(async (s) => s.spawn(write, { name: long }));
    expect(child.status === 'committed' && child.output).toMatchObject(refused);
    const fits = await rt.run(async (s) => s.spawn(async () => 'ok', { name: 'n'.repeat(16) }), { name: 'n'.repeat(16) });
    expect(fits.status === 'committed' && fits.output.status).toBe('committed');
    expect(rt.book.size).toBe(0);
    await rt.close();
  });

  it('limits - the JSON Schemas state them: maxLength / maxItems in the plain form, in words in the strict form providers accept', () => {
    type Visit = (n: Record<string, unknown>, parent: Record<string, unknown> | null) => void;
    const walk = (node: unknown, visit: Visit, parent: Record<string, unknown> | null = null): void => {
      if (typeof node !== 'object' || node === null) return;
      const here = node as Record<string, unknown>;
      visit(here, parent);
      for (const value of Object.values(here)) {
        if (Array.isArray(value)) value.forEach((v) => walk(v, visit, here));
        else walk(value, visit, here);
      }
    };
    for (const { name, parameters } of toolJsonSchemas({ strict: false })) {
      walk(parameters, (n) => {
        if (n['type'] === 'string' && !n['enum']) expect(n['maxLength'], name).toEqual(expect.any(Number));
        if (n['type'] === 'array') expect(n['maxItems'], name).toEqual(expect.any(Number));
      });
    }
    for (const { name, parameters } of toolJsonSchemas()) {
      expect(strictSchemaViolations(parameters), name).toEqual([]);
      // an optional field is `anyOf: [field, null]`: its description is on the anyOf
      const said = (n: Record<string, unknown>, parent: Record<string, unknown> | null): string =>
        `${String(n['description'] ?? '')} ${String(parent?.['description'] ?? '')}`;
      walk(parameters, (n, parent) => {
        if (n['type'] === 'string' && !n['enum']) expect(said(n, parent), name).toMatch(/at most \d+ characters/);
        if (n['type'] === 'array') expect(said(n, parent), name).toMatch(/at most \d+ items/);
      });
    }
  });

  it("limits - the defaults refuse no operation ACE's own conformance cases write, and documents are never bounded", () => {
    const limits = operationLimits(defaultLimits);
    let batches = 0;
    for (const c of loadCases()) {
      let book = c.initialText ? Skillbook.fromJSON(c.initialText) : Skillbook.empty();
      for (const step of c.steps) {
        const free = book.applyBatch(step.batch);
        const bounded = book.applyBatch(step.batch, { limits });
        expect(bounded.ok ? 'ok' : bounded.error.code).toBe(free.ok ? 'ok' : free.error.code);
        batches += 1;
        book = free.book;
      }
    }
    expect(batches).toBeGreaterThan(10);
    const huge = Skillbook.empty().applyBatch({
      operations: [
        {
          type: 'ADD',
          section: 'context',
          issue: 'x',
          insight: 'i'.repeat(100_000),
          keywords: Array.from({ length: 500 }, (_, i) => `k${i}`),
        },
      ],
    });
    expect(huge.ok && Skillbook.fromJSON(huge.book.toJSON()).get('context-00001')?.insight?.length).toBe(100_000);
  });
});
