import { describe, expect, it } from 'vitest';
import { callSkillTool, createRuntime, isError } from '@cohort/runtime';
import type { ToolResult } from '@cohort/runtime';

describe('refused tool calls', () => {
  it('refused calls - a committed outcome says how many of its tool calls were answered { error }, and why', async () => {
    const rt = createRuntime();
    const outcome = await rt.run(async (s) => {
      await s.tools.add_skill({ section: 'harness', issue: 'kept', insight: 'x' });
      await s.tools.add_skill({ section: 'harness', issue: '', insight: 'x' });
      await callSkillTool(s.tools, 'update_skill', { skill_id: 'context-00009', insight: 'y' });
    });
    expect(outcome).toMatchObject({
      status: 'committed',
      refused: {
        count: 2,
        calls: [
          { tool: 'add_skill', error: expect.stringMatching(/^invalid arguments: .*issue/s) },
          { tool: 'update_skill', error: 'skill not found: context-00009' },
        ],
      },
    });
    const clean = await rt.run(async (s) => s.tools.add_skill({ section: 'harness', issue: 'clean', insight: 'x' }));
    expect(clean.status === 'committed' && clean.refused).toEqual({ count: 0, calls: [] });
    expect(rt.book.size).toBe(2);
    await rt.close();
  });

  it('refused calls - keep the first few reasons and count every one', async () => {
    const rt = createRuntime();
    const outcome = await rt.run(async (s) => {
      for (let i = 0; i < 100; i += 1) await s.tools.read_skill({ skill_id: `context-${i}` });
    });
    if (outcome.status !== 'committed') throw new Error('expected a commit');
    expect(outcome.refused.count).toBe(100);
    expect(outcome.refused.calls.length).toBeLessThan(100);
    expect(outcome.refused.calls[0]).toEqual({ tool: 'read_skill', error: 'skill not found: context-0' });
    await rt.close();
  });

  it("refused calls - onRefusedCall: 'fail' fails the session at its first refused call; the model still gets its { error }", async () => {
    const rt = createRuntime();
    const answers: ToolResult[] = [];
    let bodyDone: Promise<void> = Promise.resolve();
    const outcome = await rt.run(
      (s) =>
        (bodyDone = (async () => {
          answers.push(await s.tools.add_skill({ section: 'harness', issue: 'lost with the session', insight: 'x' }));
          answers.push(await s.tools.add_skill({ section: 'harness', issue: '', insight: 'x' }));
          answers.push(await s.tools.add_skill({ section: 'harness', issue: 'after', insight: 'x' }));
        })()),
      { onRefusedCall: 'fail' },
    );
    expect(outcome).toMatchObject({
      status: 'failed',
      failure: {
        kind: 'tool_refused',
        message: expect.stringMatching(/^add_skill refused: invalid arguments: .*issue/s),
        discarded: { ops: 1 },
      },
    });
    expect(outcome.status === 'failed' && isError(outcome.failure)).toBe(true);
    expect(answers[1]).toMatchObject({ error: expect.stringContaining('invalid arguments') });
    await bodyDone; // the failed session's body runs on to its end; its later calls are answered, not applied
    expect(answers[2]).toMatchObject({ error: expect.stringContaining('has ended') });
    const child = await rt.run(async (s) => s.spawn(async (c) => c.tools.read_skill({ skill_id: 'nope' }), { onRefusedCall: 'fail' }));
    expect(child.status === 'committed' && child.output).toMatchObject({ status: 'failed', failure: { kind: 'tool_refused' } });
    expect(rt.book.size).toBe(0);
    await rt.close();
  });
});
