import { jsonSchema, tool } from 'ai';
import { describe, expect, it } from 'vitest';
import { createRuntime, SimulatedClock } from '@cohort/runtime';
import type { Clock, Session, SessionFailure } from '@cohort/runtime';
import { runAgent, streamAgent } from '@cohort/ai';
import type { RecurseTaskResult } from '@cohort/ai';
import { neverAnswers, scriptedModel } from './utils/scriptedModel.ts';
import type { ModelCall, Reply } from './utils/scriptedModel.ts';
import { timedOutRun } from './utils/timedOutRun.ts';

const REFLECT = 'Reflect on the traces and delegate the distilling.';

/** The parent adds a skill and delegates; children A, B and C each add one; B's next model call throws. */
function proofScript(call: ModelCall): Reply {
  if (call.task === REFLECT) {
    if (call.step === 0) {
      return {
        calls: [
          {
            tool: 'add_skill',
            input: {
              section: 'harness',
              issue: 'plan first',
              insight: 'write the plan down',
              keywords: null,
              skill_id: null,
              insight_source: null,
            },
          },
          {
            tool: 'recurse',
            input: {
              tasks: [
                { prompt: 'distil A', name: 'A' },
                { prompt: 'distil B', name: 'B' },
                { prompt: 'distil C', name: null },
              ],
            },
          },
        ],
      };
    }
    return { text: 'reflected' };
  }
  if (call.task === 'distil B' && call.step === 1) throw new Error('provider overloaded');
  if (call.step === 0)
    return { calls: [{ tool: 'add_skill', input: { section: 'context', issue: `from ${call.task}`, insight: 'learned' } }] };
  return { text: `${call.task}: done` };
}

describe('runAgent', () => {
  it('recurse - a child whose model throws reaches the parent model as a failed result; its siblings commit, attributed to their paths', async () => {
    const rt = createRuntime();
    const failures: SessionFailure[] = [];
    rt.events$.subscribe((e) => e.type === 'session.failed' && failures.push(e.failure));
    const model = scriptedModel(proofScript);
    const outcome = await rt.run((s) => runAgent(s, { model, prompt: REFLECT, recurse: true }), { name: 'reflector' });
    if (outcome.status !== 'committed') throw new Error(`the parent failed: ${outcome.failure.message}`);
    expect(outcome.output.text).toBe('reflected');

    const parentSecondCall = model.doGenerateCalls.findLast((c) => JSON.stringify(c.prompt).includes(REFLECT));
    const results = parentSecondCall?.prompt.flatMap((m) => (m.role === 'tool' ? m.content : []));
    const recurse = results?.find((p) => p.type === 'tool-result' && p.toolName === 'recurse');
    const perTask = (recurse?.type === 'tool-result' && recurse.output.type === 'json' ? recurse.output.value : null) as
      | RecurseTaskResult[]
      | null;
    expect(perTask).toEqual([
      { status: 'committed', name: 'A', text: 'distil A: done', added: [expect.stringMatching(/^context-0000\d$/)] },
      { status: 'failed', name: 'B', kind: 'crashed', message: expect.stringContaining('provider overloaded') },
      { status: 'committed', text: 'distil C: done', added: [expect.stringMatching(/^context-0000\d$/)] },
    ]);

    expect(failures).toMatchObject([{ kind: 'crashed', discarded: { ops: 1 }, error: { message: 'provider overloaded' } }]);
    expect(JSON.stringify(rt.audit)).not.toContain('from distil B');
    const issues = [...rt.book.skills()].map((s) => s.issue).sort();
    expect(issues).toEqual(['from distil A', 'from distil C', 'plan first']);
    const byIssue = new Map(rt.audit.flatMap((e) => e.ops.map((op) => [op.issue, e.path] as const)));
    const rootId = outcome.path[0];
    expect(byIssue.get('plan first')).toEqual([rootId]);
    expect(byIssue.get('from distil A')).toMatchObject([rootId, expect.any(String)]);
    expect(byIssue.get('from distil C')).toMatchObject([rootId, expect.any(String)]);
    expect(byIssue.get('from distil A')?.[1]).not.toBe(byIssue.get('from distil C')?.[1]);
    await rt.close();
  });

  it('recurse - a child whose model never answers is stopped by its timeout through the abort signal', async () => {
    const clock = new SimulatedClock();
    const rt = createRuntime({ clock });
    const observed = { aborted: false };
    const model = scriptedModel((call) => {
      if (call.task === 'parent')
        return call.step === 0
          ? { calls: [{ tool: 'recurse', input: { tasks: [{ prompt: 'hang', name: 'slow' }] } }] }
          : { text: 'gave up waiting' };
      return neverAnswers(call, observed);
    });
    const outcome = await clock.settle(rt.run((s) => runAgent(s, { model, prompt: 'parent', recurse: { timeoutMs: 50 } })));
    expect(observed.aborted).toBe(true);
    if (outcome.status !== 'committed') throw new Error('the parent failed');
    const results = outcome.output.steps[0]?.toolResults.map((r) => r.output);
    expect(results).toEqual([[{ status: 'failed', name: 'slow', kind: 'timeout', message: 'timed out after 50 ms' }]]);
    await rt.close();
  });

  it('a timeout of the session itself aborts its model call and fails it as timeout', async () => {
    const { aborted, outcome } = await timedOutRun((s, model) => runAgent(s, { model, prompt: 'hang' }));
    expect(aborted).toBe(true);
    expect(outcome.status === 'failed' && outcome.failure.kind).toBe('timeout');
  });

  it('a timeout stops a model that answers at once and never lets a timer fire: the deadline is checked between steps, on the clock', async () => {
    // time passes (a second per model call) but no timer fires: a loop that never yields to the event loop
    let now = 0;
    const clock: Clock = { now: () => now, setTimeout: () => 0, clearTimeout: () => undefined };
    const rt = createRuntime({ clock });
    const model = scriptedModel((call) => {
      now += 1_000;
      return call.step < 50 ? { calls: [{ tool: 'read_skill', input: { skill_id: 'context-00001' } }] } : { text: 'ran past its deadline' };
    });
    const outcome = await rt.run((s) => runAgent(s, { model, prompt: 'loop', maxSteps: 1e9 }), { timeoutMs: 5_000 });
    expect(outcome.status === 'failed' && outcome.failure.kind).toBe('timeout');
    expect(model.doGenerateCalls).toHaveLength(5);
    const streamed = scriptedModel((call) => {
      now += 1_000;
      return call.step < 50 ? { calls: [{ tool: 'read_skill', input: { skill_id: 'context-00001' } }] } : { text: 'ran past its deadline' };
    });
    const budgeted = await rt.run((s) => streamAgent(s, { model: streamed, prompt: 'loop', maxSteps: 1e9 }).result, {
      budget: { ms: 3_000 },
    });
    expect(budgeted.status === 'failed' && budgeted.failure).toMatchObject({
      kind: 'budget_exhausted',
      message: expect.stringContaining('wall-clock'),
    });
    expect(streamed.doStreamCalls).toHaveLength(3);
    await rt.close();
  });

  it("budget - every call's request and tokens are charged, a child's to its carved budget and back to the parent", async () => {
    const rt = createRuntime();
    const model = scriptedModel((call) => {
      if (call.task === 'parent')
        return call.step === 0
          ? { calls: [{ tool: 'recurse', input: { tasks: [{ prompt: 'child' }] } }], tokens: { input: 100, output: 20 } }
          : { text: 'ok', tokens: { input: 150, output: 10 } };
      return { text: 'child done', tokens: { input: 40, output: 2 } };
    });
    let left: unknown;
    let usage: unknown;
    const outcome = await rt.run(
      async (s) => {
        const result = await runAgent(s, { model, prompt: 'parent', recurse: { budget: { tokens: 500, requests: 3 } } });
        usage = result.usage;
        left = s.charge({});
      },
      { budget: { tokens: 10_000, requests: 10 } },
    );
    expect(outcome.status).toBe('committed');
    expect(usage).toMatchObject({ inputTokens: 250, outputTokens: 30, totalTokens: 280 });
    // parent: 120 + 160 tokens, 2 requests; child: 42 tokens, 1 request
    expect(left).toEqual({ ok: true, remaining: { tokens: 10_000 - 280 - 42, requests: 10 - 3 } });
    await rt.close();
  });

  it('budget - a spent token budget fails the session as budget_exhausted and stops the loop', async () => {
    const rt = createRuntime();
    const model = scriptedModel(() => ({
      calls: [{ tool: 'read_skill', input: { skill_id: 'context-00001' } }],
      tokens: { input: 30, output: 10 },
    }));
    const outcome = await rt.run((s) => runAgent(s, { model, prompt: 'loop forever', maxSteps: 20 }), { budget: { tokens: 100 } });
    expect(outcome.status === 'failed' && outcome.failure.kind).toBe('budget_exhausted');
    expect(model.doGenerateCalls).toHaveLength(3); // 40 + 40 charged; the third call's 40 is refused
    await rt.close();
  });

  it('budget - a spent request budget refuses the next call before it is made', async () => {
    const rt = createRuntime();
    const model = scriptedModel(() => ({ calls: [{ tool: 'read_skill', input: { skill_id: 'x' } }] }));
    const outcome = await rt.run((s) => runAgent(s, { model, prompt: 'loop', maxSteps: 20 }), { budget: { requests: 2 } });
    expect(outcome.status === 'failed' && outcome.failure.kind).toBe('budget_exhausted');
    expect(model.doGenerateCalls).toHaveLength(2);
    await rt.close();
  });

  it('recurse - children get their own extra tools, and recurse again only as deep as allowed', async () => {
    const rt = createRuntime();
    const toolNames = new Map<string, string[]>();
    const model = scriptedModel((call) => {
      toolNames.set(call.task, (call.options.tools ?? []).map((t) => t.name).sort());
      const next = { root: 'child', child: 'grandchild' }[call.task];
      if (call.step === 0 && next) return { calls: [{ tool: 'recurse', input: { tasks: [{ prompt: next }] } }] };
      if (call.step === 0) return { calls: [{ tool: 'whoami', input: {} }] };
      if (call.task === 'grandchild') whoamiSaw.push(call.toolResults.at(-1)?.output);
      return { text: 'done' };
    });
    const whoamiSaw: unknown[] = [];
    const whoami = (child: Session) => ({
      whoami: tool({
        description: 'who am I',
        inputSchema: jsonSchema<unknown>({ type: 'object', properties: {}, required: [], additionalProperties: false }),
        execute: async () => child.path.length,
      }),
    });
    const outcome = await rt.run((s) => runAgent(s, { model, prompt: 'root', recurse: { depth: 1, tools: whoami } }));
    expect(outcome.status).toBe('committed');
    const skills = ['add_skill', 'read_skill', 'remove_skill', 'tag_skill', 'update_skill'];
    expect(toolNames.get('root')).toEqual([...skills, 'recurse'].sort());
    expect(toolNames.get('child')).toEqual([...skills, 'recurse', 'whoami'].sort());
    expect(toolNames.get('grandchild')).toEqual([...skills, 'whoami'].sort());
    expect(whoamiSaw).toEqual([{ type: 'json', value: 3 }]); // root → child → grandchild
    await rt.close();
  });

  it('stops after maxSteps, takes messages instead of a prompt, and keeps the writes of the session', async () => {
    const rt = createRuntime();
    const model = scriptedModel((call) => ({
      calls: [{ tool: 'add_skill', input: { section: 'harness', issue: `step ${call.step}`, insight: 'x' } }],
    }));
    const outcome = await rt.run((s: Session) =>
      runAgent(s, { model, messages: [{ role: 'user', content: [{ type: 'text', text: 'go' }] }], maxSteps: 2, system: 'be brief' }),
    );
    expect(outcome.status).toBe('committed');
    expect(model.doGenerateCalls).toHaveLength(2);
    expect(model.doGenerateCalls[0]?.prompt[0]).toEqual({ role: 'system', content: 'be brief' });
    expect(rt.book.size).toBe(2);
    await rt.close();
  });
});
