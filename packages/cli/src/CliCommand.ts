import type { Command } from 'commander';
import type { CliIo } from './CliIo.ts';

/** What a command gets when it registers: the streams, and where its exit code goes. */
export interface CliContext {
  readonly io: CliIo;
  /** Records the exit code of the command that ran: 0 success, 1 failure or damage, 2 usage error. */
  exit(code: number): void;
}

/**
 * One command of `cohort`, in its own file: adds itself (its arguments, options, help text
 * and action) to `parent` — the program, or a command group such as `book`. Arguments and
 * options are declared with commander, so `--help` and usage errors come for free; a value
 * is checked with {@link optionValue}.
 *
 * @example
 * export const registerHello: RegisterCommand = (parent, { io, exit }) => {
 *   parent.command('hello').description('say hello').option('--json', 'machine-readable output')
 *     .action((options: { json?: true }) => {
 *       io.out.write(options.json ? '{"hello":"world"}\n' : 'hello, world\n');
 *       exit(0);
 *     });
 * };
 */
export type RegisterCommand = (parent: Command, context: CliContext) => void;
