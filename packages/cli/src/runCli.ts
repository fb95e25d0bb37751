import { CommanderError } from 'commander';
import type { CliIo } from './CliIo.ts';
import { createProgram } from './createProgram.ts';
import { jsonErrors } from './jsonErrors.ts';

/**
 * Runs the `cohort` command line and resolves with its exit code: 0 on success (and for
 * `--help` and `--version`), 1 when the work failed (damage found, a file that cannot be
 * read, an invariant violated), 2 on a usage error (printed with the command's usage). With
 * `--json`, an error is a JSON value on stdout too (see {@link jsonErrors}).
 *
 * @example
 * process.exitCode = await runCli(process.argv.slice(2), { out: process.stdout, err: process.stderr });
 */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const errors = jsonErrors(argv, io);
  const code = await runProgram(argv, errors.io);
  errors.finish(code);
  return code;
}

async function runProgram(argv: readonly string[], io: CliIo): Promise<number> {
  let code = 0;
  const program = createProgram({ io, exit: (c) => void (code = c) });
  try {
    await program.parseAsync([...argv], { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) return error.exitCode === 0 ? 0 : 2;
    throw error;
  }
  return code;
}
