import { asSchema, generateText, stepCountIs } from 'ai';
import { describe, expect, it } from 'vitest';
import { createRuntime } from '@cohort/runtime';
import { recurseTool, skillTools } from '@cohort/ai';
import { acceptsNull, strictSchemaViolations } from '../../runtime/test/utils/strictSchemaRules.ts';
import { scriptedModel } from './utils/scriptedModel.ts';

describe('skillTools', () => {
  it("write to the session's private draft, and answer bad arguments as the tool's result while the loop goes on", async () => {
    const rt = createRuntime();
    const model = scriptedModel((call) =>
      call.step === 0
        ? {
            calls: [
              { tool: 'add_skill', input: { section: 'harness', issue: 'retry flaky calls', insight: 'twice, with jitter' } },
              { tool: 'add_skill', input: { sectoin: 'harness', issue: 'typo' } },
              { tool: 'tag_skill', input: 'not even an object' },
            ],
          }
        : { text: `saw ${call.toolResults.length} results` },
    );
    let seenByOthers = -1;
    const outcome = await rt.run(async (s) => {
      const result = await generateText({ model, tools: skillTools(s), prompt: 'learn', stopWhen: stepCountIs(3), abortSignal: s.signal });
      seenByOthers = rt.book.size; // the draft is private until the session commits
      return result.text;
    });
    expect(outcome).toMatchObject({ status: 'committed', output: 'saw 3 results', added: ['harness-00001'] });
    expect(seenByOthers).toBe(0);
    const outputs = model.doGenerateCalls[1]?.prompt
      .flatMap((m) => (m.role === 'tool' ? m.content : []))
      .map((p) => (p.type === 'tool-result' ? p.output : null));
    expect(outputs).toEqual([
      { type: 'json', value: { ok: true, skill_id: 'harness-00001' } },
      { type: 'json', value: { error: expect.stringMatching(/^invalid arguments: .*sectoin/s) } },
      { type: 'json', value: { error: expect.stringMatching(/^invalid arguments: /) } },
    ]);
    await rt.close();
  });

  it('hand the model schemas that OpenAI strict mode and Anthropic accept, strict mode on', async () => {
    const rt = createRuntime();
    await rt.run(async (s) => {
      const tools = { ...skillTools(s), recurse: recurseTool(s, { model: scriptedModel(() => ({ text: '' })) }) };
      for (const [name, t] of Object.entries(tools)) {
        const schema = await asSchema(t.inputSchema).jsonSchema;
        expect(strictSchemaViolations(schema), name).toEqual([]);
        expect(t.strict, name).toBe(true);
        expect(t.description, name).toMatch(/\w/);
      }
      const recurse = (await asSchema(tools.recurse.inputSchema).jsonSchema) as {
        properties: { tasks: { items: { properties: Record<string, unknown> } } };
      };
      expect(acceptsNull(recurse.properties.tasks.items.properties['name'])).toBe(true);
      expect(acceptsNull(recurse.properties.tasks.items.properties['prompt'])).toBe(false);
    });
    await rt.close();
  });
});
