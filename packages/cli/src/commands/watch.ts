import type { RegisterCommand } from '../CliCommand.ts';
import { wholeNumberOption } from '../optionValue.ts';

/** The options as commander hands them over. */
interface WatchFlags {
  readonly port: number;
  readonly workers: number;
  readonly pace: number;
  readonly runs: number;
  readonly exitWhenDone?: true;
}

/**
 * `cohort watch`: runs a sample workload on the real clock and serves its live view on
 * 127.0.0.1 — the page an embedding service gets from `serveLiveView(rt)` — until
 * interrupted (Ctrl-C), or until the run is done with `--exit-when-done`.
 */
export const registerWatch: RegisterCommand = (program, { io, exit }) => {
  program
    .command('watch')
    .description('watch sessions live in a browser: a sample workload with its live view on 127.0.0.1')
    .addOption(wholeNumberOption('--port <n>', 'the port on 127.0.0.1 (0: any free port)', 0, 65_535).default(0))
    .addOption(wholeNumberOption('--workers <n>', 'parallel worker sessions of the sample workload', 1, 10_000).default(12))
    .addOption(wholeNumberOption('--pace <ms>', "one step of a worker's thinking, in ms", 1, 60_000).default(400))
    .addOption(
      wholeNumberOption('--runs <n>', 'run the workload this many times, one after another (the page lists every run)', 1, 1_000).default(
        1,
      ),
    )
    .option('--exit-when-done', 'stop serving once the workload has ended (default: serve until Ctrl-C)')
    .addHelpText(
      'after',
      '\nIn your own service, serve the same page for your runtime with serveLiveView(rt) from @cohort/report.\n\nExamples:\n  cohort watch\n  cohort watch --port 4400 --workers 40 --pace 100\n  cohort watch --runs 3\n',
    )
    .action(async (flags: WatchFlags) => {
      const { runWatch } = await import('../watch/runWatch.ts');
      exit(
        await runWatch(
          { port: flags.port, workers: flags.workers, paceMs: flags.pace, runs: flags.runs, exitWhenDone: flags.exitWhenDone === true },
          io,
        ),
      );
    });
};
