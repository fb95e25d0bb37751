import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRuntime } from '@cohort/runtime';
import { attributeOf as attribute, startOtlpReceiver } from '../../../test/utils/otlpReceiver.ts';
import type { OtlpReceiver } from '../../../test/utils/otlpReceiver.ts';
import { startTestTracing } from './utils/otel.ts';
import type { TestTracing } from './utils/otel.ts';

let receiver: OtlpReceiver;
let tracing: TestTracing;

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  tracing = startTestTracing(new OTLPTraceExporter({ url: `${receiver.url}/v1/traces` }));
});
afterAll(async () => {
  await tracing.stop();
  await receiver.close();
});

describe('tracing - a real export', () => {
  it('sends the session tree over OTLP/HTTP to a collector, spans and parents intact', async () => {
    const rt = createRuntime({ runtimeId: 'otlp' });
    await rt.run(
      async (s) => {
        await s.tools.add_skill({ section: 'harness', issue: 'exported', insight: 'x' });
        await s.spawn(
          async () => {
            throw new Error('child crashed');
          },
          { name: 'child' },
        );
      },
      { name: 'root' },
    );
    await rt.close();
    await tracing.provider.forceFlush();

    expect(receiver.received.length).toBeGreaterThan(0);
    expect(receiver.received[0]?.contentType).toMatch(/^application\/json/);
    const spans = receiver.received.flatMap((r) => r.spans);
    const named = (name: string) => spans.find((s) => s.name === name);
    const root = named('invoke_agent root');
    const child = named('invoke_agent child');
    expect(attribute(root, 'gen_ai.agent.id')).toBe('otlp.1');
    expect(attribute(child, 'gen_ai.conversation.id')).toBe('otlp.1');
    expect(root?.parentSpanId ?? '').toBe('');
    expect(child?.parentSpanId).toBe(root?.spanId);
    expect(child?.traceId).toBe(root?.traceId);
    expect(child?.status).toMatchObject({ code: 2, message: 'child crashed' });
    expect(attribute(child, 'error.type')).toBe('crashed');
    expect(child?.events?.map((e) => e.name)).toContain('exception');
    expect(named('execute_tool add_skill')?.parentSpanId).toBe(root?.spanId);
    const append = named('cohort.store.append');
    expect(append?.parentSpanId).toBe(root?.spanId);
    expect(append?.links?.map((l) => l.spanId)).toEqual([root?.spanId]);
    expect(attribute(append, 'cohort.merge.revision')).toBe(1);
  });
});
