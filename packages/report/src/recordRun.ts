import { RunRecorder } from './RunRecorder.ts';
import type { AttachOptions, RecordableRuntime, RecorderOptions } from './RunRecorder.ts';

/** Options of {@link recordRun}: the recorder's and the run's. */
export interface RecordRunOptions extends RecorderOptions, AttachOptions {}

/**
 * Starts recording one runtime's run; `recorder.stop()` (or closing the runtime) ends it.
 * Attach before the runtime runs sessions. With an inspection tap, the recording also has
 * every session machine's states and the root supervisor.
 *
 * @example
 * const tap = createInspectionTap();
 * const rt = createRuntime({ inspect: tap.inspect });
 * const recorder = recordRun(rt, { title: 'nightly', inspection: tap });
 * await rt.run(async (s) => { await s.tools.add_skill({ section: 'harness', issue: 'x', insight: 'y' }); });
 * await writeRunReport(recorder.stop(), 'run.html');
 */
export function recordRun(rt: RecordableRuntime, options: RecordRunOptions = {}): RunRecorder {
  const recorder = new RunRecorder(options);
  recorder.attach(rt, options);
  return recorder;
}
