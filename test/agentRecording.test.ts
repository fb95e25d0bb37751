import { describe, expect, it } from 'vitest';
import { createRuntime } from '@cohort/runtime';
import type { Runtime, SessionCall } from '@cohort/runtime';
import { runAgent, streamAgent } from '@cohort/ai';
import { parseRecording, recordRun } from '@cohort/report';
import type { RecorderOptions, Recording, SessionRecord } from '@cohort/report';
import { scriptedModel } from '../packages/ai/test/utils/scriptedModel.ts';
import type { ModelCall, Reply } from '../packages/ai/test/utils/scriptedModel.ts';

const ADD = { section: 'harness', issue: 'flaky network', insight: 'retry twice', keywords: null, skill_id: null, insight_source: null };

/** Step 0 adds a skill (and sends an update to a skill that does not exist); step 1 answers. */
function addThenAnswer(call: ModelCall): Reply {
  if (call.step === 0)
    return {
      calls: [
        { tool: 'add_skill', input: ADD },
        { tool: 'update_skill', input: { skill_id: 'harness-99999', issue: 'x', insight: null, keywords: null } },
      ],
      tokens: { input: 30, output: 12 },
    };
  return { text: 'added one skill', tokens: { input: 50, output: 4 } };
}

async function recordAgent(
  options: RecorderOptions,
  body: (rt: Runtime) => Promise<unknown>,
): Promise<{ recording: Recording; session: SessionRecord }> {
  const rt = createRuntime();
  const recorder = recordRun(rt, options);
  await body(rt);
  const recording = recorder.stop();
  await rt.close();
  const session = recording.runs[0]?.sessions[0];
  if (!session) throw new Error('no session recorded');
  return { recording, session };
}

const model = () => scriptedModel(addThenAnswer);

describe('recording - model and tool calls', () => {
  it('a loop records each model call: messages in and out, tool calls with inputs, tokens and finish reason', async () => {
    const { session } = await recordAgent({}, (rt) =>
      rt.run((s) => runAgent(s, { model: model(), system: 'You distil skills.', prompt: 'Distil this trace: timeout, retry, ok' })),
    );
    expect(session.modelCalls.map((c) => [c.step, c.finishReason, c.usage])).toEqual([
      [0, 'tool-calls', { inputTokens: 30, outputTokens: 12 }],
      [1, 'stop', { inputTokens: 50, outputTokens: 4 }],
    ]);
    const [first, second] = session.modelCalls;
    expect(first?.model).toBe('mock-provider/mock-model-id');
    expect(first?.input).toEqual([
      { role: 'system', parts: [{ type: 'text', text: 'You distil skills.' }] },
      { role: 'user', parts: [{ type: 'text', text: 'Distil this trace: timeout, retry, ok' }] },
    ]);
    expect(first?.output.map((p) => (p.type === 'tool-call' ? [p.toolName, p.input] : p.type))).toEqual([
      ['add_skill', ADD],
      ['update_skill', { skill_id: 'harness-99999', issue: 'x', insight: null, keywords: null }],
    ]);
    // the second call was sent the tool results (not the first answer again)
    expect(second?.input.map((m) => m.role)).toEqual(['tool']);
    expect(second?.output).toEqual([{ type: 'text', text: 'added one skill' }]);
  });

  it('each tool run is recorded with its input and result, a refused Skillbook call with its error result', async () => {
    const { session } = await recordAgent({}, (rt) => rt.run((s) => runAgent(s, { model: model(), prompt: 'go' })));
    const calls = session.modelCalls[0]?.output.filter((p) => p.type === 'tool-call') ?? [];
    expect(session.toolCalls.map((t) => t.toolCallId)).toEqual(calls.map((c) => c.toolCallId));
    const [add, update] = session.toolCalls;
    expect(add).toMatchObject({ toolName: 'add_skill', input: ADD, output: { ok: true, skill_id: expect.stringMatching(/^harness-/) } });
    expect(update).toMatchObject({ toolName: 'update_skill', output: { error: expect.stringContaining('harness-99999') } });
  });

  it('a streamed loop is recorded the same way', async () => {
    const { session } = await recordAgent({}, (rt) => rt.run((s) => streamAgent(s, { model: model(), prompt: 'go' }).result));
    expect(session.modelCalls.map((c) => [c.step, c.finishReason, c.usage.outputTokens])).toEqual([
      [0, 'tool-calls', 12],
      [1, 'stop', 4],
    ]);
    expect(session.modelCalls[1]?.output).toEqual([{ type: 'text', text: 'added one skill' }]);
    expect(session.toolCalls.map((t) => t.toolName)).toEqual(['add_skill', 'update_skill']);
  });

  it('a model call that fails is recorded with its error', async () => {
    const failing = scriptedModel(() => {
      throw new Error('provider overloaded');
    });
    const { session } = await recordAgent({}, (rt) => rt.run((s) => runAgent(s, { model: failing, prompt: 'go' })));
    expect(session.status).toBe('failed');
    expect(session.modelCalls[0]).toMatchObject({ finishReason: null, error: { message: expect.stringContaining('provider overloaded') } });
  });

  it("content 'off' keeps tokens, finish reasons and tool names but no text, inputs or results", async () => {
    const { recording, session } = await recordAgent({ content: 'off' }, (rt) =>
      rt.run((s) => runAgent(s, { model: model(), prompt: 'the secret is hunter2' })),
    );
    expect(recording.content).toBe('off');
    const text = JSON.stringify(recording);
    expect(text).not.toContain('hunter2');
    expect(session.modelCalls.map((c) => c.usage.inputTokens)).toEqual([30, 50]);
    expect(session.toolCalls.map((t) => [t.toolName, t.input, 'output' in t])).toEqual([
      ['add_skill', null, false],
      ['update_skill', null, false],
    ]);
  });

  it('a redact function decides what is kept of each call', async () => {
    const mask = (value: unknown): unknown => JSON.parse(JSON.stringify(value).replaceAll(/sk-[a-z0-9]+/g, 'sk-***'));
    const redact = (call: SessionCall): SessionCall | null =>
      call.type === 'tool' && call.toolName === 'update_skill' ? null : (mask(call) as SessionCall);
    const { recording, session } = await recordAgent({ content: redact }, (rt) =>
      rt.run((s) => runAgent(s, { model: model(), prompt: 'use key sk-abc123 to fetch the trace' })),
    );
    expect(recording.content).toBe('redacted');
    expect(JSON.stringify(recording)).not.toContain('sk-abc123');
    expect(session.modelCalls[0]?.input[0]?.parts).toEqual([{ type: 'text', text: 'use key sk-*** to fetch the trace' }]);
    expect(session.toolCalls.map((t) => t.toolName)).toEqual(['add_skill']);
  });

  it('a long text is cut with a marker, within the bound per call', async () => {
    const prompt = `trace: ${'x'.repeat(50_000)}`;
    const { session } = await recordAgent({ maxCallChars: 1_000 }, (rt) => rt.run((s) => runAgent(s, { model: model(), prompt })));
    const kept = session.modelCalls[0]?.input[0]?.parts[0];
    const text = kept?.type === 'text' ? kept.text : '';
    expect(text.length).toBeLessThan(1_100);
    const [, keptText, left] = /^(trace: x+)…\[(\d+) more characters not recorded\]$/.exec(text) ?? [];
    expect((keptText?.length ?? 0) + Number(left)).toBe(prompt.length);
  });

  it('the recording with its calls reads back through its schema; a call of the wrong shape is named', async () => {
    const { recording } = await recordAgent({}, (rt) => rt.run((s) => runAgent(s, { model: model(), prompt: 'go' })));
    const read = parseRecording(JSON.stringify(recording));
    expect(read.ok && read.recording.runs[0]?.sessions[0]?.modelCalls.length).toBe(2);
    const bad = JSON.parse(JSON.stringify(recording));
    bad.runs[0].sessions[0].modelCalls[0].usage = { inputTokens: 'many' };
    const refused = parseRecording(JSON.stringify(bad));
    expect(refused.ok).toBe(false);
    expect(!refused.ok && refused.message).toContain('runs.0.sessions.0.modelCalls.0.usage');
  });
});

describe('recording - a crash', () => {
  it("names the ops the crash discarded, its children's merged ones too", async () => {
    const { session } = await recordAgent({}, (rt) =>
      rt.run(async (s) => {
        await s.tools.add_skill({ section: 'harness', issue: 'one', insight: 'a' });
        await s.spawn(async (c) => {
          await c.tools.add_skill({ section: 'harness', issue: 'two', insight: 'b' });
        });
        throw new Error('boom');
      }),
    );
    expect(session.failure?.discarded.ops).toBe(2);
    expect(session.discardedOps.map((op) => [op.type, op.issue])).toEqual([
      ['ADD', 'one'],
      ['ADD', 'two'],
    ]);
  });
});
