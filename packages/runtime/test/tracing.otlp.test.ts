import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createRuntime } from '@cohort/runtime';
import { startTestTracing } from './utils/otel.ts';
import type { TestTracing } from './utils/otel.ts';

/** The part of an OTLP/HTTP JSON export request the test reads. */
const AnyValue = z.object({ stringValue: z.string().optional(), intValue: z.union([z.string(), z.number()]).optional() });
const ExportRequest = z.object({
  resourceSpans: z.array(
    z.object({
      scopeSpans: z.array(
        z.object({
          scope: z.object({ name: z.string() }),
          spans: z.array(
            z.object({
              traceId: z.string(),
              spanId: z.string(),
              parentSpanId: z.string().optional(),
              name: z.string(),
              attributes: z.array(z.object({ key: z.string(), value: AnyValue })),
              status: z.object({ code: z.number().optional(), message: z.string().optional() }).optional(),
              links: z.array(z.object({ traceId: z.string(), spanId: z.string() })).optional(),
              events: z.array(z.object({ name: z.string() })).optional(),
            }),
          ),
        }),
      ),
    }),
  ),
});
type ExportedSpan = z.infer<typeof ExportRequest>['resourceSpans'][number]['scopeSpans'][number]['spans'][number];

const received: { contentType: string | undefined; spans: ExportedSpan[] }[] = [];
const server = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const body = ExportRequest.parse(JSON.parse(Buffer.concat(chunks).toString('utf8')));
    const spans = body.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans));
    received.push({ contentType: req.headers['content-type'], spans });
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
});
let tracing: TestTracing;

beforeAll(async () => {
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  tracing = startTestTracing(new OTLPTraceExporter({ url: `http://127.0.0.1:${port}/v1/traces` }));
});
afterAll(async () => {
  await tracing.stop();
  server.close();
});

const attribute = (span: ExportedSpan | undefined, key: string) => {
  const value = span?.attributes.find((a) => a.key === key)?.value;
  return value?.stringValue ?? (value?.intValue === undefined ? undefined : Number(value.intValue));
};

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

    expect(received.length).toBeGreaterThan(0);
    expect(received[0]?.contentType).toMatch(/^application\/json/);
    const spans = received.flatMap((r) => r.spans);
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
