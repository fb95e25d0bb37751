import { createInspectionTap, serveLiveView } from '@cohort/report';
import type { LiveView } from '@cohort/report';
import { createRuntime } from '@cohort/runtime';
import type { Runtime } from '@cohort/runtime';
import type { CliIo } from '../CliIo.ts';
import { sampleWorkload } from './sampleWorkload.ts';
import { whenOrphaned } from './whenOrphaned.ts';
import type { SampleWorkloadOptions } from './sampleWorkload.ts';

/** What `cohort watch` runs, after its options are checked. */
export interface WatchArgs extends SampleWorkloadOptions {
  readonly port: number;
  readonly exitWhenDone: boolean;
  /** How many times the workload runs, one run after another, each a runtime of its own (default 1). */
  readonly runs?: number;
}

/**
 * Serves the live view, runs the sample workload under it (`runs` times, one after another:
 * the page lists every run, and an ended one stays there to be shown), prints how each ended,
 * then keeps serving until SIGINT or SIGTERM, or until the process that started it has gone
 * (npx does not pass SIGTERM on) — or stops at once with `exitWhenDone`. Resolves with 0, or 1
 * when the port cannot be had.
 */
export async function runWatch(args: WatchArgs, io: CliIo): Promise<number> {
  const tap = createInspectionTap();
  const rt = createRuntime({ inspect: tap.inspect });
  let view;
  try {
    view = await serveLiveView(rt, { port: args.port, inspection: tap, title: 'cohort watch', label: 'run 1' });
  } catch (error) {
    io.err.write(`${(error as Error).message}\n`);
    await rt.close();
    return 1;
  }
  const stopped = interrupted();
  io.out.write(`live view: ${view.url} (open it in a browser${args.exitWhenDone ? '' : '; Ctrl-C stops'})\n`);
  const runs = args.runs ?? 1;
  let current: Runtime = rt;
  let stop = false;
  void stopped.promise.then(() => (stop = true));
  for (let n = 1; n <= runs && !stop; n++) {
    if (n > 1) {
      const next = createInspectionTap();
      current = createRuntime({ inspect: next.inspect });
      view.attach(current, { label: `run ${n}`, inspection: next });
    }
    const ended = await runOnce(current, view, n, runs, args, io, stopped.promise);
    // closed, its run ends in the view: the page shows it as a finished run
    await current.close();
    if (!ended) break;
  }
  if (!stop && !args.exitWhenDone) await stopped.promise;
  stopped.release();
  await current.close();
  await view.close();
  return 0;
}

/** Runs the workload once on `rt`, and prints how it ended; false when interrupted first. */
async function runOnce(
  rt: Runtime,
  view: LiveView,
  n: number,
  runs: number,
  args: WatchArgs,
  io: CliIo,
  stopped: Promise<void>,
): Promise<boolean> {
  const outcome = await Promise.race([rt.run(sampleWorkload(args), { name: 'planner' }), stopped.then(() => null)]);
  if (!outcome) return false;
  const sessions = view.recorder.recording().runs[n - 1]?.sessions ?? [];
  const failed = sessions.filter((s) => s.status === 'failed').length;
  io.out.write(
    `${runs > 1 ? `run ${n}: ` : ''}the planner ${outcome.status}: ${sessions.length} sessions, ${sessions.length - failed} committed, ${failed} failed; the book holds ${rt.book.size} skills\n`,
  );
  return true;
}

/** Resolves on the first SIGINT or SIGTERM, or when the launcher has gone; `release` removes the handlers. */
function interrupted(): { promise: Promise<void>; release(): void } {
  let fire = (): void => {};
  const promise = new Promise<void>((resolve) => (fire = resolve));
  const handler = (): void => fire();
  process.once('SIGINT', handler);
  process.once('SIGTERM', handler);
  const unwatch = whenOrphaned(handler);
  return {
    promise,
    release: () => {
      unwatch();
      process.off('SIGINT', handler);
      process.off('SIGTERM', handler);
    },
  };
}
