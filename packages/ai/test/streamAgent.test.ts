import { describe, expect, it } from 'vitest';
import { createRuntime } from '@cohort/runtime';
import { streamAgent } from '@cohort/ai';
import { scriptedModel } from './utils/scriptedModel.ts';
import { timedOutRun } from './utils/timedOutRun.ts';

describe('streamAgent', () => {
  it('streams the same tool loop: tools write the draft, recurse spawns children, usage is charged', async () => {
    const rt = createRuntime();
    const model = scriptedModel((call) => {
      if (call.task === 'parent' && call.step === 0) {
        return {
          calls: [
            { tool: 'add_skill', input: { section: 'harness', issue: 'streamed', insight: 'x' } },
            { tool: 'recurse', input: { tasks: [{ prompt: 'child' }] } },
          ],
          tokens: { input: 50, output: 5 },
        };
      }
      if (call.task === 'child' && call.step === 0)
        return {
          calls: [{ tool: 'add_skill', input: { section: 'context', issue: 'from the child', insight: 'y' } }],
          tokens: { input: 20, output: 5 },
        };
      return { text: `${call.task} done`, tokens: { input: 10, output: 5 } };
    });
    const deltas: string[] = [];
    let left: unknown;
    const outcome = await rt.run(
      async (s) => {
        const { stream, result } = streamAgent(s, { model, prompt: 'parent', recurse: true });
        for await (const delta of stream.textStream) deltas.push(delta);
        const { text, usage } = await result;
        left = s.charge({});
        return { text, tokens: usage.totalTokens };
      },
      { budget: { tokens: 1_000 } },
    );
    expect(outcome).toMatchObject({ status: 'committed', output: { text: 'parent done', tokens: 70 } });
    expect(deltas.join('')).toBe('parent done');
    expect([...rt.book.skills()].map((s) => s.issue).sort()).toEqual(['from the child', 'streamed']);
    expect(model.doStreamCalls).toHaveLength(2); // the parent's calls; a child's loop is not streamed (runAgent)
    expect(model.doGenerateCalls).toHaveLength(2);
    expect(left).toMatchObject({ ok: true, remaining: { tokens: 1_000 - 70 - 40 } });
    await rt.close();
  });

  it("rejects with the model's own error, so the session fails as crashed with it", async () => {
    const rt = createRuntime();
    const model = scriptedModel(() => {
      throw new Error('provider overloaded');
    });
    const outcome = await rt.run(async (s) => (await streamAgent(s, { model, prompt: 'x' }).result).text);
    expect(outcome.status === 'failed' && outcome.failure).toMatchObject({ kind: 'crashed', error: { message: 'provider overloaded' } });
    await rt.close();
  });

  it("is stopped by the session's timeout through the abort signal", async () => {
    const { aborted, outcome } = await timedOutRun(async (s, model) => (await streamAgent(s, { model, prompt: 'hang' }).result).text);
    expect(aborted).toBe(true);
    expect(outcome.status === 'failed' && outcome.failure.kind).toBe('timeout');
  });

  it('a spent budget ends the stream and fails the session as budget_exhausted', async () => {
    const rt = createRuntime();
    const model = scriptedModel(() => ({ calls: [{ tool: 'read_skill', input: { skill_id: 'x' } }], tokens: { input: 30, output: 10 } }));
    const outcome = await rt.run(async (s) => (await streamAgent(s, { model, prompt: 'loop', maxSteps: 20 }).result).text, {
      budget: { tokens: 100 },
    });
    expect(outcome.status === 'failed' && outcome.failure.kind).toBe('budget_exhausted');
    expect(model.doStreamCalls).toHaveLength(3);
    await rt.close();
  });
});
