import { createInspectionTap, serveLiveView } from '@cohort/report';
import { createRuntime } from '@cohort/runtime';
import type { CliIo } from '../CliIo.ts';
import { sampleWorkload } from './sampleWorkload.ts';
import { whenOrphaned } from './whenOrphaned.ts';
import type { SampleWorkloadOptions } from './sampleWorkload.ts';

/** What `cohort watch` runs, after its options are checked. */
export interface WatchArgs extends SampleWorkloadOptions {
  readonly port: number;
  readonly exitWhenDone: boolean;
}

/**
 * Serves the live view, runs the sample workload under it, prints how it ended, then keeps
 * serving (the page stays for a look) until SIGINT or SIGTERM, or until the process that
 * started it has gone (npx does not pass SIGTERM on) — or stops at once with
 * `exitWhenDone`. Resolves with 0, or 1 when the port cannot be had.
 */
export async function runWatch(args: WatchArgs, io: CliIo): Promise<number> {
  const tap = createInspectionTap();
  const rt = createRuntime({ inspect: tap.inspect });
  let view;
  try {
    view = await serveLiveView(rt, { port: args.port, inspection: tap, title: 'cohort watch' });
  } catch (error) {
    io.err.write(`${(error as Error).message}\n`);
    await rt.close();
    return 1;
  }
  const stopped = interrupted();
  io.out.write(`live view: ${view.url} (open it in a browser${args.exitWhenDone ? '' : '; Ctrl-C stops'})\n`);
  const outcome = await Promise.race([rt.run(sampleWorkload(args), { name: 'planner' }), stopped.promise.then(() => null)]);
  if (outcome) {
    const sessions = view.recorder.recording().runs[0]?.sessions ?? [];
    const failed = sessions.filter((s) => s.status === 'failed').length;
    io.out.write(
      `the planner ${outcome.status}: ${sessions.length} sessions, ${sessions.length - failed} committed, ${failed} failed; the book holds ${rt.book.size} skills\n`,
    );
    if (!args.exitWhenDone) await stopped.promise;
  }
  stopped.release();
  await rt.close();
  await view.close();
  return 0;
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
