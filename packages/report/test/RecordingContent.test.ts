import { describe, expect, it } from 'vitest';
import { createRuntime } from '@cohort/runtime';
import type { SessionCall } from '@cohort/runtime';
import { boundCall, parseRecording, recordRun, renderRunReport } from '../src/index.ts';

const modelCall = (text: string): SessionCall => ({
  type: 'model',
  model: 'mock/model',
  step: 0,
  input: [{ role: 'user', parts: [{ type: 'text', text }] }],
  output: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'add_skill', input: { issue: text } }],
  finishReason: 'tool-calls',
  usage: { inputTokens: 3, outputTokens: 1 },
  durationMs: 5,
});

describe('recording content', () => {
  it('boundCall - cuts content past the budget with a marker, across the whole call; names, roles and ids stay', () => {
    const call = boundCall(modelCall('a'.repeat(30)), 20);
    expect(call).toEqual({
      ...modelCall(''),
      input: [{ role: 'user', parts: [{ type: 'text', text: `${'a'.repeat(20)}…[10 more characters not recorded]` }] }],
      output: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'add_skill', input: { issue: '…[30 more characters not recorded]' } }],
    });
  });

  it('boundCall - a value that is not JSON (a cycle, a bigint, a date) becomes text, and the recording stays serialisable', () => {
    const cyclic: Record<string, unknown> = { name: 'loop' };
    cyclic['self'] = cyclic;
    const tool: SessionCall = {
      type: 'tool',
      toolCallId: 'c1',
      toolName: 'mine',
      input: { when: new Date(0), big: 10n },
      output: cyclic,
      durationMs: 1,
    };
    const bounded = boundCall(tool, 1_000);
    expect(bounded).toMatchObject({ input: { when: '1970-01-01T00:00:00.000Z', big: '10' }, output: { name: 'loop', self: '[…]' } });
    expect(() => JSON.stringify(bounded)).not.toThrow();
  });

  it("content 'off' - a body's own recorded call keeps its numbers and tool names, none of its text", async () => {
    const rt = createRuntime();
    const recorder = recordRun(rt, { content: 'off' });
    await rt.run(async (s) => s.record(modelCall('the password is swordfish')));
    const recording = recorder.stop();
    await rt.close();
    expect(JSON.stringify(recording)).not.toContain('swordfish');
    const [call] = recording.runs[0]!.sessions[0]!.modelCalls;
    expect(call).toMatchObject({ input: [], usage: { inputTokens: 3, outputTokens: 1 }, finishReason: 'tool-calls' });
    expect(call?.output).toEqual([{ type: 'tool-call', toolCallId: 'c1', toolName: 'add_skill', input: null }]);
  });

  it('a call of the wrong shape is left out and marked as a defect naming the field; the report still renders', async () => {
    const rt = createRuntime();
    const recorder = recordRun(rt);
    await rt.run(async (s) => {
      s.record({ type: 'model', model: 'mock/model', step: 'first' } as unknown as SessionCall);
      s.record(modelCall('kept'));
    });
    const recording = recorder.stop();
    await rt.close();
    const run = recording.runs[0]!;
    expect(run.sessions[0]!.modelCalls).toHaveLength(1);
    expect(run.marks).toEqual([
      expect.objectContaining({
        type: 'defect',
        error: expect.objectContaining({ name: 'InvalidSessionCall', message: expect.stringContaining('step') }),
      }),
    ]);
    expect(renderRunReport(recording)).toContain('kept');
  });

  it('a redact function that throws or returns a call of the wrong shape leaves that call out, with a defect saying why', async () => {
    const rt = createRuntime();
    let n = 0;
    const redact = (call: SessionCall): SessionCall => {
      n += 1;
      if (n === 1) throw new Error('no pattern for this');
      if (n === 2) return { ...call, type: 'mystery' } as unknown as SessionCall;
      return call;
    };
    const recorder = recordRun(rt, { content: redact });
    await rt.run(async (s) => {
      for (const text of ['one', 'two', 'three']) s.record(modelCall(text));
    });
    const run = recorder.stop().runs[0]!;
    await rt.close();
    expect(run.sessions[0]!.modelCalls.map((c) => c.input[0]?.parts[0])).toEqual([{ type: 'text', text: 'three' }]);
    expect(run.marks.map((m) => (m.type === 'defect' ? m.error.message : ''))).toEqual([
      expect.stringContaining('the redact function threw (no pattern for this)'),
      expect.stringContaining('the redact function returned type'),
    ]);
  });

  it('a recording written before calls were recorded still reads, with no calls', async () => {
    const rt = createRuntime();
    const recorder = recordRun(rt);
    await rt.run(async (s) => s.tools.add_skill({ section: 'harness', issue: 'old', insight: 'x' }));
    const old = JSON.parse(JSON.stringify(recorder.stop()));
    await rt.close();
    delete old.content;
    for (const session of old.runs[0].sessions) {
      delete session.modelCalls;
      delete session.toolCalls;
      delete session.discardedOps;
    }
    const read = parseRecording(JSON.stringify(old));
    expect(read.ok && [read.recording.content, read.recording.runs[0]?.sessions[0]?.modelCalls]).toEqual(['on', []]);
  });
});
