/**
 * Scenario 9, tracing overhead: the fan-out W(n, 10) of scenario 2 on Cohort with tracing off
 * (`tracing: false`), with OpenTelemetry's API and no provider registered (its no-op tracer: a
 * service that has `@opentelemetry/api` but collects nothing), and with the SDK recording every
 * span (a span processor that hands each to an exporter that drops it), alternated run by run.
 */
import { context, trace } from '@opentelemetry/api';
import { BasicTracerProvider, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { SpanExporter } from '@opentelemetry/sdk-trace-base';
import { interleave } from '../measure.ts';
import { runCohort } from '../peers/systems/cohortPeer.ts';
import { flatWorkload } from '../peers/Workload.ts';
import type { BenchOptions, Scenario, ScenarioReport, Target } from '../Scenario.ts';
import { byMode, medianFigure, ratioRow } from '../Scenario.ts';

/** Spans go nowhere: the row measures making and ending them, not an exporter's I/O. */
const dropAll: SpanExporter = {
  export: (_spans, done) => done({ code: 0 }),
  shutdown: () => Promise.resolve(),
};

const NOTHING_MEASURABLE: Target = { kind: 'at-most', value: 1.05, text: '≤ 1.05× (nothing measurable)' };

/** Scenario 9. */
export const tracingOverhead: Scenario = {
  id: '9',
  name: 'tracing overhead',
  async run(options: BenchOptions): Promise<ScenarioReport> {
    const size = byMode(options.mode, {
      full: { n: 2_000, warmup: 2, reps: 7 },
      quick: { n: 1_000, warmup: 1, reps: 3 },
      smoke: { n: 20, warmup: 0, reps: 1 },
    });
    const w = flatWorkload('tracing', size.n);
    options.log(`9 tracing overhead: W(${size.n}, 10) with tracing off, a no-op tracer and the SDK recording`);
    const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(dropAll)] });
    const untraced = () => {
      trace.disable();
      context.disable();
    };
    const [off = [], noop = [], recording = []] = await interleave(
      [
        async () => {
          untraced();
          return (await runCohort(w, { tracing: false })).ms;
        },
        async () => {
          untraced();
          return (await runCohort(w)).ms;
        },
        async () => {
          trace.setGlobalTracerProvider(provider);
          return (await runCohort(w)).ms;
        },
      ],
      { warmup: size.warmup, reps: size.reps },
    );
    untraced();
    await provider.shutdown();
    const o = medianFigure(off, 'ms', 'tracing off');
    const n = medianFigure(noop, 'ms', 'no-op tracer');
    const r = medianFigure(recording, 'ms', 'SDK recording');
    const label = size.n.toLocaleString('en-US');
    return {
      rows: [
        ratioRow('9a', `fan-out ${label} × 10: a no-op tracer, vs tracing off`, n, o, n.value / o.value, NOTHING_MEASURABLE),
        ratioRow('9b', `fan-out ${label} × 10: the SDK recording every span, vs tracing off`, r, o, r.value / o.value, {
          kind: 'info',
          text: 'info',
        }),
      ],
    };
  },
};
