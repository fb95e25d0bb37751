import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { trace } from '@opentelemetry/api';
import { fromPromise } from 'xstate';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { createRuntime, traceCarrier, withTraceCarrier } from '@cohort/runtime';
import type { Session, SessionEvent } from '@cohort/runtime';
import { spanWith, startTestTracing } from './utils/otel.ts';
import type { TestTracing } from './utils/otel.ts';
import { spawnPlannerChildren } from './utils/plannerChildren.ts';

let tracing: TestTracing;
beforeAll(() => {
  tracing = startTestTracing();
});
afterAll(() => tracing.stop());
beforeEach(() => tracing.exporter.reset());

type Spawned = Extract<SessionEvent, { type: 'session.spawned' }>;

/**
 * A planner with four children, three levels deep: `writer` (and its `leaf`) commit, `crasher`
 * throws with a cause, `sleeper` runs out of time, `late` updates a skill `writer` changed first
 * and is rejected with a conflict. Run inside a span of the caller's.
 */
async function runTree() {
  const rt = createRuntime({ runtimeId: 'tr' });
  const spawned: Spawned[] = [];
  const sub = rt.events$.subscribe((e) => {
    if (e.type === 'session.spawned') spawned.push(e);
  });
  const outer = trace.getTracer('test');
  const outcome = await outer.startActiveSpan('request', async (request) => {
    const result = await rt.run(
      async (s: Session) => {
        const added = await s.tools.add_skill({ section: 'harness', issue: 'flaky network', insight: 'retry' });
        if (!('ok' in added)) throw new Error(added.error);
        const id = added.skill_id;
        const children = spawnPlannerChildren(s, id, {
          writer: async (w) => {
            await w.tools.update_skill({ skill_id: id, insight: 'retry twice' });
            await w.spawn(async (leaf) => leaf.tools.add_skill({ section: 'harness', issue: 'leaf finding', insight: 'x' }), {
              name: 'leaf',
            });
          },
          crasher: async () => {
            throw new Error('the tool call failed', { cause: new Error('sandbox exited with code 137') });
          },
        });
        return Promise.all(children);
      },
      { name: 'planner' },
    );
    request.end();
    return { result, request };
  });
  sub.unsubscribe();
  await rt.close();
  return { ...outcome, spawned, spans: tracing.spans() };
}

/** The invoke_agent span of a session (exactly one). */
function sessionSpan(spans: readonly ReadableSpan[], sessionId: string): ReadableSpan {
  const found = spans.filter(
    (s) => s.attributes['gen_ai.operation.name'] === 'invoke_agent' && s.attributes['gen_ai.agent.id'] === sessionId,
  );
  if (found.length !== 1) throw new Error(`expected one invoke_agent span of ${sessionId}, found ${found.length}`);
  return found[0] as ReadableSpan;
}

describe('tracing - the span tree is the session tree', () => {
  it('gives every session an invoke_agent span under its parent session, in the caller’s trace', async () => {
    const { spawned, spans, request, result } = await runTree();
    expect(result.status).toBe('committed');
    expect(spawned.map((e) => e.name).sort()).toEqual(['crasher', 'late', 'leaf', 'planner', 'sleeper', 'writer']);
    const rootId = spawned.find((e) => e.parentId === null)?.sessionId;
    for (const e of spawned) {
      const span = sessionSpan(spans, e.sessionId);
      expect(span.name).toBe(`invoke_agent ${e.name}`);
      expect(span.attributes['gen_ai.agent.name']).toBe(e.name);
      expect(span.attributes['gen_ai.conversation.id']).toBe(rootId);
      expect(span.spanContext().traceId).toBe(request.spanContext().traceId);
      const parentSpanId = e.parentId === null ? request.spanContext().spanId : sessionSpan(spans, e.parentId).spanContext().spanId;
      expect(span.parentSpanContext?.spanId, `${e.name}'s parent`).toBe(parentSpanId);
    }
  });

  it('marks failures with status ERROR, the failure kind and the cause chain', async () => {
    const { spawned, spans } = await runTree();
    const span = (name: string) => sessionSpan(spans, spawned.find((e) => e.name === name)?.sessionId ?? '');
    const crasher = span('crasher');
    expect(crasher.status).toMatchObject({ code: 2, message: 'the tool call failed' });
    expect(crasher.attributes['error.type']).toBe('crashed');
    expect(crasher.events.filter((e) => e.name === 'exception').map((e) => e.attributes?.['exception.message'])).toEqual([
      'the tool call failed',
      'sandbox exited with code 137',
    ]);
    expect(span('sleeper').attributes['error.type']).toBe('timeout');
    expect(span('sleeper').status.code).toBe(2);
    const late = span('late');
    expect(late.attributes['error.type']).toBe('conflict');
    expect(late.events.find((e) => e.name === 'cohort.conflict')?.attributes?.['cohort.conflict.reason']).toBe('content_changed');
    for (const name of ['planner', 'writer', 'leaf']) {
      expect(span(name).status.code, name).toBe(0);
      expect(span(name).attributes['cohort.session.status']).toBe('committed');
    }
  });

  it('makes each merge a span under the parent session, linked to the committing child, and the root commit a store append', async () => {
    const { spawned, spans } = await runTree();
    const idOf = (name: string) => spawned.find((e) => e.name === name)?.sessionId ?? '';
    const planner = sessionSpan(spans, idOf('planner'));
    const writer = sessionSpan(spans, idOf('writer'));
    const merged = spanWith(spans, 'cohort.merge', 'cohort.session.id', idOf('writer'));
    expect(merged.parentSpanContext?.spanId).toBe(planner.spanContext().spanId);
    expect(merged.links.map((l) => l.context.spanId)).toEqual([writer.spanContext().spanId]);
    expect(merged.attributes).toMatchObject({ 'cohort.merge.into': idOf('planner'), 'cohort.commit.ops': 2, 'cohort.merge.ops': 2 });
    expect(merged.attributes['cohort.merge.revision']).toBeTypeOf('number');
    const leafMerge = spanWith(spans, 'cohort.merge', 'cohort.session.id', idOf('leaf'));
    expect(leafMerge.parentSpanContext?.spanId).toBe(writer.spanContext().spanId);
    const rejected = spanWith(spans, 'cohort.merge', 'cohort.session.id', idOf('late'));
    expect(rejected.status.code).toBe(2);
    expect(rejected.attributes).toMatchObject({ 'error.type': 'conflict', 'cohort.merge.conflicts': 1 });
    const append = spanWith(spans, 'cohort.store.append', 'cohort.session.id', idOf('planner'));
    expect(append.parentSpanContext?.spanId).toBe(planner.spanContext().spanId);
    expect(append.attributes).toMatchObject({ 'cohort.merge.into': 'store', 'cohort.merge.revision': 1, 'cohort.commit.ops': 3 });
    // the crashed and timed-out sessions never committed: no merge of theirs
    expect(spans.filter((s) => s.name === 'cohort.merge').map((s) => s.attributes['cohort.session.id'])).not.toContain(idOf('crasher'));
  });

  it('makes each Skillbook tool call an execute_tool span of its session, with the skill id and the result', async () => {
    const { spawned, spans } = await runTree();
    const idOf = (name: string) => spawned.find((e) => e.name === name)?.sessionId ?? '';
    const tools = spans.filter((s) => s.attributes['gen_ai.operation.name'] === 'execute_tool');
    expect(tools.map((s) => s.name).sort()).toEqual([
      'execute_tool add_skill',
      'execute_tool add_skill',
      'execute_tool update_skill',
      'execute_tool update_skill',
    ]);
    const leafAdd = spanWith(tools, 'execute_tool add_skill', 'gen_ai.agent.id', idOf('leaf'));
    expect(leafAdd.parentSpanContext?.spanId).toBe(sessionSpan(spans, idOf('leaf')).spanContext().spanId);
    expect(leafAdd.attributes).toMatchObject({ 'gen_ai.tool.name': 'add_skill', 'cohort.tool.result': 'ok' });
    expect(leafAdd.attributes['cohort.skill.id']).toMatch(/^harness-\d{5}$/);
    const update = spanWith(tools, 'execute_tool update_skill', 'gen_ai.agent.id', idOf('writer'));
    expect(update.attributes['cohort.skill.id']).toBe(
      spanWith(tools, 'execute_tool add_skill', 'gen_ai.agent.id', idOf('planner')).attributes['cohort.skill.id'],
    );
  });

  it('makes a refused tool call an execute_tool span with status ERROR', async () => {
    const rt = createRuntime();
    await rt.run(async (s) => s.tools.update_skill({ skill_id: 'harness-99999', insight: 'x' }));
    await rt.close();
    const span = spanWith(tracing.spans(), 'execute_tool update_skill', 'cohort.skill.id', 'harness-99999');
    expect(span.status).toMatchObject({ code: 2, message: 'skill not found: harness-99999' });
    expect(span.attributes['cohort.tool.result']).toBe('error');
  });

  it('gives each attempt of a retried session a span of its own', async () => {
    const rt = createRuntime();
    let calls = 0;
    const outcome = await rt.run(async (s) =>
      s.spawn(
        async () => {
          if (++calls === 1) throw new Error('first try');
        },
        { name: 'flaky', retry: { attempts: 1 } },
      ),
    );
    await rt.close();
    expect(outcome.status).toBe('committed');
    const flaky = tracing.spans().filter((s) => s.name === 'invoke_agent flaky');
    expect(flaky.map((s) => [s.attributes['cohort.session.attempt'], s.status.code])).toEqual([
      [1, 2],
      [2, 0],
    ]);
    const root = tracing.spans().find((s) => s.name === 'invoke_agent');
    expect(new Set(flaky.map((s) => s.parentSpanContext?.spanId))).toEqual(new Set([root?.spanContext().spanId]));
  });

  it('runs the body in its session’s span, so spans the body starts nest under it', async () => {
    const rt = createRuntime();
    await rt.run(
      async (s) => {
        await new Promise((resolve) => setTimeout(resolve, 1));
        trace.getTracer('body').startSpan('inside the body').end();
        await s.spawn(async () => trace.getTracer('body').startSpan('inside the child').end(), { name: 'child' });
      },
      { name: 'root' },
    );
    await rt.close();
    const spans = tracing.spans();
    const byName = (name: string) => spans.find((s) => s.name === name)?.spanContext().spanId;
    expect(spans.find((s) => s.name === 'inside the body')?.parentSpanContext?.spanId).toBe(byName('invoke_agent root'));
    expect(spans.find((s) => s.name === 'inside the child')?.parentSpanContext?.spanId).toBe(byName('invoke_agent child'));
  });

  it('runs an actor-logic body (a fromPromise actor) in its session’s span too', async () => {
    const rt = createRuntime();
    const body = fromPromise(async () => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      trace.getTracer('body').startSpan('inside the actor').end();
      return 'done';
    });
    await rt.run(body, { name: 'actor' });
    await rt.close();
    const spans = tracing.spans();
    const session = spans.find((s) => s.name === 'invoke_agent actor');
    expect(spans.find((s) => s.name === 'inside the actor')?.parentSpanContext?.spanId).toBe(session?.spanContext().spanId);
  });

  it('makes a refused spawn a failed span under its parent', async () => {
    const rt = createRuntime({ limits: { maxDepth: 1 } });
    await rt.run(
      async (s) => {
        await s.spawn(async (c) => c.spawn(async () => 'too deep', { name: 'too-deep' }), { name: 'child' });
      },
      { name: 'root' },
    );
    await rt.close();
    const spans = tracing.spans();
    const refused = spans.find((s) => s.name === 'invoke_agent too-deep');
    expect(refused?.attributes['error.type']).toBe('limit_exceeded');
    expect(refused?.status.code).toBe(2);
    expect(refused?.parentSpanContext?.spanId).toBe(spans.find((s) => s.name === 'invoke_agent child')?.spanContext().spanId);
  });

  it('carries the trace to another runtime through traceCarrier and withTraceCarrier', async () => {
    const sender = createRuntime();
    const worker = createRuntime();
    let carrier: Record<string, string> | undefined;
    await sender.run(
      async () => {
        carrier = traceCarrier();
      },
      { name: 'sender' },
    );
    expect(carrier?.['traceparent']).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    await withTraceCarrier(carrier, () => worker.run(async () => 'done', { name: 'remote' }));
    await sender.close();
    await worker.close();
    const spans = tracing.spans();
    const sent = spans.find((s) => s.name === 'invoke_agent sender');
    const remote = spans.find((s) => s.name === 'invoke_agent remote');
    expect(remote?.spanContext().traceId).toBe(sent?.spanContext().traceId);
    expect(remote?.parentSpanContext?.spanId).toBe(sent?.spanContext().spanId);
  });

  it('records nothing when tracing is off', async () => {
    const rt = createRuntime({ tracing: false });
    const outcome = await rt.run(async (s) => {
      await s.spawn(async (c) => c.tools.add_skill({ section: 'harness', issue: 'untraced', insight: 'x' }));
    });
    await rt.close();
    expect(outcome.status).toBe('committed');
    expect(tracing.spans()).toEqual([]);
  });

  it('refuses a tracing option that is not a boolean', () => {
    expect(() => createRuntime({ tracing: 'yes' as never })).toThrow(/tracing/);
  });
});
