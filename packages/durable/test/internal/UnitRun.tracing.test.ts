import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Session } from '@cohort/runtime';
import { Bodies } from '../../src/Bodies.ts';
import { runUnit } from '../../src/internal/UnitRun.ts';
import type { UnitSpec } from '../../src/UnitSpec.ts';
import { UnitSpecSchema } from '../../src/UnitSpec.ts';
import { startTestTracing } from '../../../runtime/test/utils/otel.ts';
import type { TestTracing } from '../../../runtime/test/utils/otel.ts';
import { memoryHost } from '../utils/memoryHost.ts';

let tracing: TestTracing;
beforeAll(() => {
  tracing = startTestTracing();
});
afterAll(() => tracing.stop());

describe('runUnit - one trace across units', () => {
  it("gives a child unit its spawning session's trace context, and its sessions join that trace", async () => {
    const leaf = async (s: Session) => s.tools.add_skill({ section: 'harness', issue: 'remote finding', insight: 'x' });
    const planner = async (s: Session) => s.spawn(leaf, { name: 'remote-leaf', input: null });
    const bodies = new Bodies({ planner, leaf });
    const sent: UnitSpec[] = [];
    // the child unit "on another worker": its spec goes through the schema, as DBOS records it
    const host = memoryHost(bodies, async (spec) => {
      sent.push(spec);
      return runUnit(host, UnitSpecSchema.parse(JSON.parse(JSON.stringify(spec))) as UnitSpec);
    });
    const result = await runUnit(host, {
      unitId: 'run-t',
      body: 'planner',
      input: null,
      name: 'planner',
      view: { baseRevision: 0, ops: [] },
    });
    expect(result.status).toBe('committed');
    expect(sent[0]?.trace?.['traceparent']).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);

    const spans = tracing.spans();
    const planned = spans.find((s) => s.name === 'invoke_agent planner');
    // in the parent unit, the proxy session that waits for the child unit; in the child unit, its root session
    const leaves = spans.filter((s) => s.name === 'invoke_agent remote-leaf');
    const proxy = leaves.find((s) => s.attributes['gen_ai.agent.id'] === sent[0]?.home?.sessionId);
    const remote = leaves.find((s) => s !== proxy);
    expect(proxy?.parentSpanContext?.spanId).toBe(planned?.spanContext().spanId);
    expect(remote?.spanContext().traceId).toBe(planned?.spanContext().traceId);
    expect(remote?.parentSpanContext?.spanId).toBe(proxy?.spanContext().spanId);
    expect(sent[0]?.trace?.['traceparent']).toContain(proxy?.spanContext().spanId);
  });

  it('refuses a trace field of another shape', () => {
    const spec = { unitId: 'u', body: 'b', input: null, view: { baseRevision: 0, ops: [] }, trace: { traceparent: 7 } };
    expect(UnitSpecSchema.safeParse(spec).success).toBe(false);
  });
});
