import { otelApi } from './internal/tracing/otelApi.ts';

/**
 * The trace context active now, as W3C Trace Context fields (`traceparent`, and `tracestate`
 * when there is one), for work that continues in another process: send it with the work, and
 * run the work inside {@link withTraceCarrier} there, so that one trace spans both processes.
 * Written by the globally registered propagator (the OpenTelemetry Node SDK registers the W3C
 * one); `undefined` without `@opentelemetry/api`, or when no trace is active.
 *
 * @example
 * const job = { task: 'review', trace: traceCarrier() };     // inside a session's body
 * // on the worker:
 * await withTraceCarrier(job.trace, () => rt.run(review));  // its root session's parent is the sender's span
 */
export function traceCarrier(): Record<string, string> | undefined {
  const api = otelApi();
  if (!api) return undefined;
  const carrier: Record<string, string> = {};
  api.propagation.inject(api.context.active(), carrier);
  return Object.keys(carrier).length > 0 ? carrier : undefined;
}

/**
 * Runs `fn` in the trace context `carrier` holds (one {@link traceCarrier} made, perhaps in
 * another process): the root sessions `fn` runs are children of the span that sent it. A
 * missing or unreadable carrier, or no `@opentelemetry/api`, runs `fn` as it is.
 *
 * @example
 * await withTraceCarrier(job.trace, () => rt.run(review));
 */
export function withTraceCarrier<T>(carrier: Readonly<Record<string, string>> | undefined, fn: () => T): T {
  const api = otelApi();
  if (!api || !carrier) return fn();
  return api.context.with(api.propagation.extract(api.ROOT_CONTEXT, carrier), fn);
}
