/** Where a command writes: `process.stdout` and `process.stderr`, or a test's capture. */
export interface CliOutput {
  write(text: string): unknown;
  /** A terminal gets progress bars; a pipe or a file never does. */
  readonly isTTY?: boolean;
  /** The terminal's width, when it is one. */
  readonly columns?: number;
}

/**
 * The two streams of a `cohort` run: results on `out` (what a pipe or `--json` reader gets),
 * usage errors, failures and progress on `err`.
 *
 * @example
 * const io: CliIo = { out: process.stdout, err: process.stderr };
 */
export interface CliIo {
  readonly out: CliOutput;
  readonly err: CliOutput;
}
