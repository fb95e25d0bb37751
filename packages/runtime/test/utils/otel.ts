import { context, propagation, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { ReadableSpan, SpanExporter } from '@opentelemetry/sdk-trace-base';

/** A tracer provider registered globally for one test file, and what it recorded. */
export interface TestTracing {
  readonly exporter: InMemorySpanExporter;
  readonly provider: BasicTracerProvider;
  spans(): ReadableSpan[];
  /** Unregisters the provider, the context manager and the propagator. */
  stop(): Promise<void>;
}

/**
 * Registers an OpenTelemetry SDK globally as a service would: every span to an in-memory
 * exporter (and to `also`, when given), the async-hooks context manager, the W3C propagator.
 */
export function startTestTracing(also?: SpanExporter): TestTracing {
  const exporter = new InMemorySpanExporter();
  const spanProcessors = [new SimpleSpanProcessor(exporter), ...(also ? [new SimpleSpanProcessor(also)] : [])];
  const provider = new BasicTracerProvider({ spanProcessors });
  trace.setGlobalTracerProvider(provider);
  context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  return {
    exporter,
    provider,
    spans: () => exporter.getFinishedSpans(),
    async stop() {
      await provider.shutdown();
      trace.disable();
      context.disable();
      propagation.disable();
    },
  };
}

/** The span whose `attribute` is `value` (exactly one), for a readable failure when there is none. */
export function spanWith(spans: readonly ReadableSpan[], name: string, attribute: string, value: unknown): ReadableSpan {
  const found = spans.filter((s) => s.name === name && s.attributes[attribute] === value);
  if (found.length !== 1) throw new Error(`expected one span ${name} with ${attribute}=${String(value)}, found ${found.length}`);
  return found[0] as ReadableSpan;
}
