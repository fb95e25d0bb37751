import { createRequire } from 'node:module';
import type * as OtelApi from '@opentelemetry/api';

/** The OpenTelemetry API, as the optional peer `@opentelemetry/api` exports it. */
export type OtelApiModule = typeof OtelApi;

let loaded: OtelApiModule | null | undefined;

/**
 * `@opentelemetry/api` when it is installed, else null — loaded once, on first use, so that a
 * program without OpenTelemetry never fails on a missing module and pays nothing. Any copy of the
 * API shares one global registry with the others, so the provider the program registered through
 * its own copy is the one found here.
 */
export function otelApi(): OtelApiModule | null {
  if (loaded === undefined) {
    try {
      loaded = createRequire(import.meta.url)('@opentelemetry/api') as OtelApiModule;
    } catch {
      loaded = null;
    }
  }
  return loaded;
}
