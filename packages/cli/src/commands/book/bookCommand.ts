import type { Command } from 'commander';
import type { BookInspection } from '@cohort/store';
import type { RegisterCommand } from '../../CliCommand.ts';
import type { CliIo } from '../../CliIo.ts';
import { printableOutput } from '../../printable.ts';
import { warnDamage } from './bookFormat.ts';
import { readInspection } from './readInspection.ts';

/** A read-only `book` command: a view of one store's inspection. */
export interface BookView<F extends { readonly json?: true }> {
  readonly name: string;
  readonly description: string;
  /** What `--json` prints. */
  readonly json: string;
  /** A progress bar (on a terminal) while the store is read: for the commands that read all of it. */
  readonly progress: boolean;
  /** The view prints the store's findings itself (`verify`); the others warn of damage on stderr. */
  readonly showsFindings?: true;
  /** Options beyond `--json`. */
  readonly options?: (command: Command) => void;
  /** Prints the view; returns the exit code. */
  readonly view: (report: BookInspection, flags: F, io: CliIo) => number;
}

/**
 * Registers `cohort book <name> <path> [--json]`: the path checked (missing, a directory), the
 * store inspected without writing, then `view`, and a warning on stderr when the store has
 * damage the view does not show. Exit 1 when the store cannot be read.
 *
 * @example
 * export const registerShowBook = bookCommand({ name: 'show', description: '…', json: '…', progress: false, view: show });
 */
export function bookCommand<F extends { readonly json?: true }>(spec: BookView<F>): RegisterCommand {
  return (book, { io, exit }) => {
    const command = book
      .command(spec.name)
      .description(spec.description)
      .argument('<path>', "the store's document, e.g. data/skillbook.json, or a postgres:// URL (?schema=…)")
      .option('--json', spec.json);
    spec.options?.(command);
    command.action(async (path: string, flags: F) => {
      const report = await readInspection(spec.name, path, io, spec.progress);
      // skill text, ids and names are other programs' and models': escaped for a terminal, exact as JSON
      const shown: CliIo = flags.json ? io : { out: printableOutput(io.out), err: printableOutput(io.err) };
      if (!report) return exit(1);
      const code = spec.view(report, flags, shown);
      if (code === 0 && spec.showsFindings !== true) warnDamage(report, shown.err);
      exit(code);
    });
  };
}
