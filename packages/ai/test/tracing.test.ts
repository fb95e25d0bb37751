import { OpenTelemetry } from '@ai-sdk/otel';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { registerTelemetry } from 'ai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntime } from '@cohort/runtime';
import type { Session, SessionEvent } from '@cohort/runtime';
import { runAgent } from '@cohort/ai';
import { startTestTracing } from '../../runtime/test/utils/otel.ts';
import type { TestTracing } from '../../runtime/test/utils/otel.ts';
import { spawnPlannerChildren } from '../../runtime/test/utils/plannerChildren.ts';
import { scriptedModel } from './utils/scriptedModel.ts';
import type { ModelCall, Reply } from './utils/scriptedModel.ts';

let tracing: TestTracing;
beforeAll(() => {
  tracing = startTestTracing();
  registerTelemetry(new OpenTelemetry());
});
afterAll(() => tracing.stop());

const add = (issue: string) => ({ tool: 'add_skill', input: { section: 'harness', issue, insight: 'learned' } });

/** `writer <id>` updates the skill and delegates to `leaf`; `leaf` adds one; `crasher`'s model fails. */
function script(call: ModelCall): Reply {
  const [task, id] = call.task.split(' ');
  if (task === 'crasher') throw new Error('provider overloaded', { cause: new Error('HTTP 529') });
  if (call.step > 0) return { text: `${task}: done` };
  if (task === 'writer') {
    return {
      calls: [
        { tool: 'update_skill', input: { skill_id: id, insight: 'retry twice' } },
        { tool: 'recurse', input: { tasks: [{ prompt: 'leaf', name: 'leaf' }] } },
      ],
    };
  }
  return { calls: [add(`from ${task}`)] };
}

type Spawned = Extract<SessionEvent, { type: 'session.spawned' }>;

const isCohort = (s: ReadableSpan) => s.instrumentationScope.name === '@cohort/runtime';

describe('tracing - the AI SDK’s spans nest under the session that made the call', () => {
  it('puts each model call and AI SDK tool call under its session, in a 3-level run with a crash, a timeout and a conflict', async () => {
    const model = scriptedModel(script);
    const rt = createRuntime({ runtimeId: 'ai' });
    const spawned: Spawned[] = [];
    const sub = rt.events$.subscribe((e) => {
      if (e.type === 'session.spawned') spawned.push(e);
    });
    const outcome = await rt.run(
      async (s: Session) => {
        const added = await s.tools.add_skill({ section: 'harness', issue: 'flaky network', insight: 'retry' });
        const id = 'skill_id' in added ? added.skill_id : '';
        const outcomes = await Promise.all(
          spawnPlannerChildren(s, id, {
            writer: (w) => runAgent(w, { model, prompt: `writer ${id}`, recurse: true }),
            crasher: (c) => runAgent(c, { model, prompt: 'crasher' }),
          }),
        );
        return outcomes.map((o) => (o.status === 'failed' ? o.failure.kind : o.status));
      },
      { name: 'planner' },
    );
    sub.unsubscribe();
    await rt.close();
    expect(outcome.status === 'committed' && outcome.output).toEqual(['committed', 'crashed', 'timeout', 'conflict']);

    const spans = tracing.spans();
    const byId = new Map(spans.map((s) => [s.spanContext().spanId, s]));
    const sessionSpans = new Map(
      spans.filter(isCohort).flatMap((s) => (s.name.startsWith('invoke_agent') ? [[s.attributes['gen_ai.agent.id'], s]] : [])),
    );
    expect([...sessionSpans.keys()].sort()).toEqual(spawned.map((e) => e.sessionId).sort());
    for (const e of spawned) {
      const span = sessionSpans.get(e.sessionId);
      expect(span?.parentSpanContext?.spanId).toBe(e.parentId === null ? undefined : sessionSpans.get(e.parentId)?.spanContext().spanId);
    }
    /** The session whose span is the nearest Cohort session span above `span`. */
    const sessionOf = (span: ReadableSpan): string | undefined => {
      for (let at = byId.get(span.parentSpanContext?.spanId ?? ''); at; at = byId.get(at.parentSpanContext?.spanId ?? '')) {
        if (isCohort(at) && at.name.startsWith('invoke_agent')) return at.attributes['gen_ai.agent.name'] as string;
      }
      return undefined;
    };
    const ai = spans.filter((s) => !isCohort(s));
    const modelCalls = ai.filter((s) => s.attributes['gen_ai.operation.name'] === 'chat');
    expect(modelCalls.map(sessionOf).sort()).toEqual(['crasher', 'leaf', 'leaf', 'writer', 'writer']);
    // the loop's own span of each agent: a child of its session's span
    const loops = ai.filter((s) => s.attributes['gen_ai.operation.name'] === 'invoke_agent');
    expect(loops.map((s) => byId.get(s.parentSpanContext?.spanId ?? '')?.attributes['gen_ai.agent.name']).sort()).toEqual([
      'crasher',
      'leaf',
      'writer',
    ]);
    expect(loops.find((s) => sessionOf(s) === 'crasher')?.status.code).toBe(2);
    // the Skillbook's span of a tool the model called sits under the AI SDK's tool span, in the session
    const leafAdd = spans.find(
      (s) =>
        isCohort(s) &&
        s.name === 'execute_tool add_skill' &&
        s.attributes['gen_ai.agent.id'] === spawned.find((e) => e.name === 'leaf')?.sessionId,
    );
    const toolSpan = byId.get(leafAdd?.parentSpanContext?.spanId ?? '');
    expect(toolSpan && !isCohort(toolSpan) && toolSpan.name).toBe('execute_tool add_skill');
    expect(leafAdd && sessionOf(leafAdd)).toBe('leaf');
    // the crashed session: the model's error and its cause
    const crasher = [...sessionSpans.values()].find((s) => s.attributes['gen_ai.agent.name'] === 'crasher');
    expect(crasher?.attributes['error.type']).toBe('crashed');
    expect(crasher?.events.filter((e) => e.name === 'exception').map((e) => e.attributes?.['exception.message'])).toContain('HTTP 529');
  });

  it('passes the AI SDK its telemetry settings, to the recurse children too', async () => {
    tracing.exporter.reset();
    const model = scriptedModel((call) =>
      call.task === 'parent' && call.step === 0
        ? { calls: [{ tool: 'recurse', input: { tasks: [{ prompt: 'child' }] } }] }
        : { text: 'done' },
    );
    const rt = createRuntime();
    const outcome = await rt.run((s) => runAgent(s, { model, prompt: 'parent', recurse: true, telemetry: { functionId: 'reviewer' } }));
    await rt.close();
    expect(outcome.status).toBe('committed');
    const loops = tracing.spans().filter((s) => !isCohort(s) && s.attributes['gen_ai.operation.name'] === 'invoke_agent');
    expect(loops.map((s) => s.attributes['gen_ai.agent.name'])).toEqual(['reviewer', 'reviewer']);
  });
});
