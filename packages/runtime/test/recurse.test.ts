import { describe, expect, it } from 'vitest';
import { createRecurseTool, createRuntime } from '@cohort/runtime';
import type { RecurseInput } from '@cohort/runtime';
import { strictSchemaViolations } from './utils/strictSchemaRules.ts';

const recurse = createRecurseTool(async (child, { task }) => {
  await child.tools.add_skill({ section: 'harness', issue: task, insight: 'learned' });
  return `did ${task}`;
});

describe('recurse', () => {
  it('publishes one object schema (no top-level anyOf) that providers accept', () => {
    expect(strictSchemaViolations(recurse.parameters)).toEqual([]);
    expect(recurse.parameters).toMatchObject({ type: 'object', required: ['tasks'] });
  });

  it('still takes one task on its own, and a null name as no name', async () => {
    const rt = createRuntime();
    const outcome = await rt.run(async (s) => [
      await recurse.call(s, { task: 'alone' }),
      await recurse.call(s, { tasks: [{ task: 'listed', name: null }] } as unknown as RecurseInput),
    ]);
    if (outcome.status !== 'committed') throw new Error('the root failed');
    const [alone, listed] = outcome.output;
    expect(alone && 'text' in alone ? alone.text : alone).toMatch(/^- \S+: committed \(added harness-00001\) — did alone$/);
    expect(listed && 'outcomes' in listed ? listed.outcomes.map((o) => o.status) : listed).toEqual(['committed']);
    expect(rt.book.size).toBe(2);
    await rt.close();
  });

  it('answers bad arguments with an error and spawns nothing', async () => {
    const rt = createRuntime();
    const outcome = await rt.run(async (s) => [
      await recurse.call(s, { tasks: [] }),
      await recurse.call(s, 'run everything' as unknown as RecurseInput),
      await recurse.call(s, { tasks: [{ prompt: 'wrong key' }] } as unknown as RecurseInput),
    ]);
    if (outcome.status !== 'committed') throw new Error('the root failed');
    for (const r of outcome.output) expect(r).toEqual({ error: expect.stringMatching(/^invalid arguments: /) });
    expect(rt.book.size).toBe(0);
    await rt.close();
  });
});
