import { runDemo } from './commands/demo.ts';

/** Where a command writes. */
export interface Output {
  write(text: string): void;
}

const USAGE = `cohort — isolated agent sessions over one shared Skillbook

usage:
  cohort demo                     run the ACE recurse scenario and a nested conflict, and explain them
  cohort book show|stats|log|verify <path> [--json]
  cohort sim [--seeds A..B | --seed N] [--trace] [--json]
`;

type Command = (args: string[], out: Output) => Promise<number>;

const commands: Record<string, () => Promise<Command>> = {
  demo: async () => runDemo,
  book: async () => (await import('./commands/book.ts')).runBook,
  sim: async () => (await import('./commands/sim.ts')).runSim,
};

/** Runs the `cohort` command line; resolves with the exit code. */
export async function runCli(argv: readonly string[], out: Output): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    out.write(USAGE);
    return name ? 0 : 2;
  }
  const load = commands[name];
  if (!load) {
    out.write(`unknown command: ${name}\n\n${USAGE}`);
    return 2;
  }
  return (await load())(rest, out);
}
