import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { describe, expect, it } from 'vitest';
import { createRuntime } from '@cohort/runtime';
import { runAgent } from '@cohort/ai';
import type { AgentModel } from '@cohort/ai';
import { strictSchemaViolations } from '../../runtime/test/utils/strictSchemaRules.ts';

/** What a strict-mode model sends: every property, `null` for the absent ones. */
const strictArgs = { section: 'harness', issue: 'from the provider', insight: 'x', keywords: null, skill_id: null, insight_source: null };

/** A `fetch` that records each request body and answers from a list (no network). */
function recorded(replies: unknown[]): { fetch: typeof fetch; bodies: Record<string, unknown>[] } {
  const bodies: Record<string, unknown>[] = [];
  const fake = async (_url: unknown, init?: { body?: unknown }): Promise<Response> => {
    bodies.push(JSON.parse(String(init?.body)) as Record<string, unknown>);
    return Response.json(replies[bodies.length - 1]);
  };
  return { fetch: fake as typeof fetch, bodies };
}

const providers: {
  name: string;
  make: (f: typeof fetch) => AgentModel;
  replies: unknown[];
  schemaOf: (tool: never) => unknown;
  strictOf: (tool: never) => unknown;
}[] = [
  {
    name: 'OpenAI (chat completions)',
    make: (f) => createOpenAI({ apiKey: 'test', fetch: f }).chat('gpt-4.1-mini'),
    replies: [
      {
        id: '1',
        object: 'chat.completion',
        created: 0,
        model: 'gpt-4.1-mini',
        choices: [
          {
            index: 0,
            finish_reason: 'tool_calls',
            message: {
              role: 'assistant',
              content: null,
              tool_calls: [{ id: 't', type: 'function', function: { name: 'add_skill', arguments: JSON.stringify(strictArgs) } }],
            },
          },
        ],
        usage: { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 },
      },
      {
        id: '2',
        object: 'chat.completion',
        created: 0,
        model: 'gpt-4.1-mini',
        choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: 'done' } }],
        usage: { prompt_tokens: 150, completion_tokens: 5, total_tokens: 155 },
      },
    ],
    schemaOf: (t: { function: { parameters: unknown } }) => t.function.parameters,
    strictOf: (t: { function: { strict?: unknown } }) => t.function.strict,
  },
  {
    name: 'OpenAI (responses)',
    make: (f) => createOpenAI({ apiKey: 'test', fetch: f })('gpt-4.1-mini'),
    replies: [
      {
        id: '1',
        object: 'response',
        created_at: 0,
        model: 'gpt-4.1-mini',
        output: [
          { type: 'function_call', id: 'f', call_id: 't', name: 'add_skill', arguments: JSON.stringify(strictArgs), status: 'completed' },
        ],
        usage: {
          input_tokens: 100,
          output_tokens: 20,
          input_tokens_details: { cached_tokens: 0 },
          output_tokens_details: { reasoning_tokens: 0 },
        },
      },
      {
        id: '2',
        object: 'response',
        created_at: 0,
        model: 'gpt-4.1-mini',
        output: [
          {
            type: 'message',
            id: 'm',
            role: 'assistant',
            status: 'completed',
            content: [{ type: 'output_text', text: 'done', annotations: [] }],
          },
        ],
        usage: {
          input_tokens: 150,
          output_tokens: 5,
          input_tokens_details: { cached_tokens: 0 },
          output_tokens_details: { reasoning_tokens: 0 },
        },
      },
    ],
    schemaOf: (t: { parameters: unknown }) => t.parameters,
    strictOf: (t: { strict?: unknown }) => t.strict,
  },
  {
    name: 'Anthropic (messages)',
    make: (f) => createAnthropic({ apiKey: 'test', fetch: f })('claude-sonnet-4-5'),
    replies: [
      {
        id: '1',
        type: 'message',
        role: 'assistant',
        model: 'claude-sonnet-4-5',
        content: [{ type: 'tool_use', id: 't', name: 'add_skill', input: strictArgs }],
        stop_reason: 'tool_use',
        stop_sequence: null,
        usage: { input_tokens: 100, output_tokens: 20 },
      },
      {
        id: '2',
        type: 'message',
        role: 'assistant',
        model: 'claude-sonnet-4-5',
        content: [{ type: 'text', text: 'done' }],
        stop_reason: 'end_turn',
        stop_sequence: null,
        usage: { input_tokens: 150, output_tokens: 5 },
      },
    ],
    schemaOf: (t: { input_schema: unknown }) => t.input_schema,
    strictOf: (t: { strict?: unknown }) => t.strict,
  },
];

describe('real provider packages', () => {
  for (const p of providers) {
    it(`${p.name} - sends every tool strict with a schema the rules accept, and the loop runs on its answers`, async () => {
      const { fetch, bodies } = recorded(p.replies);
      const rt = createRuntime();
      let left: unknown;
      const outcome = await rt.run(
        async (s) => {
          const result = await runAgent(s, { model: p.make(fetch), prompt: 'learn', recurse: true });
          left = s.charge({});
          return result.text;
        },
        { budget: { tokens: 1_000 } },
      );
      expect(outcome).toMatchObject({ status: 'committed', output: 'done', added: ['harness-00001'] });
      expect(left).toMatchObject({ remaining: { tokens: 1_000 - 120 - 155 } });
      const tools = bodies[0]?.['tools'] as never[];
      expect(tools).toHaveLength(6);
      for (const tool of tools) {
        expect(strictSchemaViolations(p.schemaOf(tool))).toEqual([]);
        expect(p.strictOf(tool)).toBe(true);
      }
      await rt.close();
    });
  }
});
