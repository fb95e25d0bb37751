import { runCli } from '../../src/runCli.ts';

/** What one `cohort` run printed, and its exit code. */
export interface CohortRun {
  readonly code: number;
  readonly out: string;
  readonly err: string;
}

/**
 * Runs `cohort <argv>` in this process, capturing stdout and stderr. With `tty`, stderr
 * claims to be an 80-column terminal (progress bars draw there).
 */
export async function runCohort(argv: readonly string[], options: { readonly tty?: boolean } = {}): Promise<CohortRun> {
  let out = '';
  let err = '';
  const code = await runCli(argv, {
    out: { write: (s: string) => void (out += s), isTTY: false },
    err: { write: (s: string) => void (err += s), isTTY: options.tty === true, columns: 80 },
  });
  return { code, out, err };
}
