import type { Command } from 'commander';

/** `cohort book log <path>` for a command at any depth. */
function commandPath(command: Command): string {
  const names: string[] = [];
  for (let c: Command | null = command; c; c = c.parent) names.unshift(c.name());
  const args = command.registeredArguments.map((a) => (a.required ? `<${a.name()}>` : `[${a.name()}]`));
  return [...names, ...args].join(' ');
}

function leaves(command: Command): Command[] {
  const subs = command.commands.filter((c) => c.name() !== 'help');
  return subs.length === 0 ? [command] : subs.flatMap(leaves);
}

/**
 * Every runnable command with every option it takes, one aligned line each, for the end of
 * `cohort --help`. It is read from the registered commands, so a new command is listed
 * without touching this file.
 *
 * @example
 * program.addHelpText('after', () => commandOverview(program));
 */
export function commandOverview(program: Command): string {
  const rows = program.commands
    .filter((c) => c.name() !== 'help')
    .flatMap(leaves)
    .map((c) => {
      const options = c.options.filter((o) => !o.hidden).map((o) => `[${o.flags.replace(/^-\w, /, '')}]`);
      return [commandPath(c), options.join(' ')] as const;
    });
  const width = Math.max(...rows.map(([path]) => path.length));
  const lines = rows.map(([path, options]) => `  ${path.padEnd(width)}  ${options}`.trimEnd());
  return `\nEvery command and its options (\`${program.name()} <command> --help\` explains them):\n${lines.join('\n')}\n`;
}
