import { otelApi } from './otelApi.ts';
import { OtelTracing } from './otelTracing.ts';
import { NO_TRACING } from './Tracing.ts';
import type { Tracing } from './Tracing.ts';

/** The name of the runtime's tracer (OpenTelemetry's instrumentation scope). */
export const TRACER_NAME = '@cohort/runtime';

/**
 * A runtime's tracing: OpenTelemetry's when `@opentelemetry/api` is installed and tracing is not
 * turned off; spans go to the globally registered tracer provider, looked up at each root
 * session (so one registered after the runtime was created is used too).
 */
export function tracingFor(enabled: boolean | undefined): Tracing {
  if (enabled === false) return NO_TRACING;
  const api = otelApi();
  return api ? new OtelTracing(api, api.trace.getTracer(TRACER_NAME)) : NO_TRACING;
}
