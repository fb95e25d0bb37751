import { Command } from 'commander';
import type { CliContext, RegisterCommand } from './CliCommand.ts';
import { commandOverview } from './commandOverview.ts';
import { registerBook } from './commands/book/registerBook.ts';
import { registerDemo } from './commands/demo.ts';
import { registerRuns } from './commands/runs.ts';
import { registerSim } from './commands/sim.ts';
import { registerWatch } from './commands/watch.ts';
import { packageVersion } from './packageVersion.ts';

/** The commands of `cohort`, in the order `--help` lists them. A new command is a file and a line here. */
const COMMANDS: readonly RegisterCommand[] = [registerDemo, registerBook, registerSim, registerWatch, registerRuns];

/**
 * The `cohort` program (commander) with every command registered, writing to `context.io`
 * and never calling `process.exit`: help, `--version` and usage errors surface as a
 * `CommanderError` that {@link runCli} turns into an exit code. A new program per run.
 *
 * @example
 * const program = createProgram({ io: { out: process.stdout, err: process.stderr }, exit: (code) => (process.exitCode = code) });
 * await program.parseAsync(['book', 'show', 'data/skillbook.json'], { from: 'user' });
 */
export function createProgram(context: CliContext): Command {
  const { io } = context;
  const program = new Command('cohort')
    .description('isolated AI-agent sessions, run in parallel, over one shared Skillbook')
    .version(packageVersion(), '-V, --version', 'print the version')
    .helpOption('-h, --help', 'print the usage (of cohort, or of a command)')
    .helpCommand('help [command]', 'print the usage of a command')
    .exitOverride()
    .configureOutput({ writeOut: (s) => void io.out.write(s), writeErr: (s) => void io.err.write(s) });
  for (const register of COMMANDS) register(program, context);
  program.addHelpText('after', () => commandOverview(program));
  pointToHelpAfterErrors(program);
  return program;
}

/** After a usage error, each command names the `--help` that explains it. */
function pointToHelpAfterErrors(command: Command): void {
  const names: string[] = [];
  for (let c: Command | null = command; c; c = c.parent) names.unshift(c.name());
  command.showHelpAfterError(`(\`${names.join(' ')} --help\` prints its usage)`);
  for (const sub of command.commands) pointToHelpAfterErrors(sub);
}
