import { describeOpenError, repairJournal } from '@cohort/store';
import type { JournalRepair } from '@cohort/store';
import type { RegisterCommand } from '../../CliCommand.ts';
import type { CliOutput } from '../../CliIo.ts';
import { printable, printableOutput } from '../../printable.ts';
import { json } from './bookFormat.ts';
import { pathProblem } from './readInspection.ts';

interface RepairFlags {
  readonly json?: true;
  readonly yes?: true;
}

/** What the cut removes, for people: where, how much, and the records that still read. */
function describe(repair: JournalRepair, out: CliOutput): void {
  const what = repair.damage === 'corrupt' ? 'damaged' : 'torn at its last write';
  out.write(`the journal is ${what} at line ${repair.line} (byte ${repair.offset}): ${printable(repair.message)}\n`);
  out.write(
    `cutting it there removes ${repair.lines} line${repair.lines === 1 ? '' : 's'} (${repair.bytes} bytes)${repair.records.length > 0 ? ', with these records:' : ''}\n`,
  );
  for (const r of repair.records) {
    const note = r.kind === 'commit' && !r.inDocument ? '  (acknowledged; not in the document)' : r.inDocument ? '  (in the document)' : '';
    out.write(
      `  line ${String(r.line).padEnd(6)} r${String(r.revision).padEnd(6)} ${r.kind.padEnd(8)} ${printable(r.writer)}  ${printable(r.sessionId ?? '')}${note}\n`,
    );
  }
  if (repair.lost > 0)
    out.write(
      `${repair.lost} acknowledged merge${repair.lost === 1 ? '' : 's'} the document does not hold go with it (the backup keeps them)\n`,
    );
  if (repair.movesLedger)
    out.write("the cut starts before the last checkpoint: the ledger is moved back to it (the document keeps that checkpoint's book)\n");
}

/**
 * `cohort book repair <path> [--yes] [--json]`: cuts a damaged journal (one the store refuses to
 * open with `corrupt_journal`) from the damaged write on, keeping the whole journal as a backup
 * beside it. Without `--yes` it shows what would go and changes nothing (exit 1 while damage
 * remains); with it, it takes the writer lock and cuts (exit 0). Exit 0 when there is nothing
 * to repair.
 */
export const registerRepairBook: RegisterCommand = (book, { io, exit }) => {
  book
    .command('repair')
    .description('cut a damaged journal from the damaged write on, keeping a backup (shows what goes; --yes to cut)')
    .argument('<path>', "the store's document, e.g. data/skillbook.json")
    .option('--yes', 'cut it (default: only show what would go)')
    .option('--json', 'machine-readable output (the repair, whether it was applied, the backup)')
    .action(async (path: string, flags: RepairFlags) => {
      const problem = await pathProblem(path);
      if (problem) {
        io.err.write(`cohort book repair: ${problem}\n`);
        return exit(1);
      }
      const result = await repairJournal(path, { apply: flags.yes === true });
      if (!result.ok) {
        io.err.write(`cohort book repair: ${describeOpenError(result.error)}\n`);
        return exit(1);
      }
      const { repair, applied, backup } = result;
      const code = repair && !applied ? 1 : 0;
      if (flags.json) {
        io.out.write(json({ document: path, repair, applied, backup }));
        return exit(code);
      }
      if (!repair) {
        io.out.write(`nothing to repair: every write in ${path}.journal is whole\n`);
        return exit(0);
      }
      describe(repair, printableOutput(io.out));
      io.out.write(
        applied
          ? `cut: the journal now ends at byte ${repair.offset}; the whole journal was kept as ${backup ?? ''}\n`
          : 'nothing was changed: run again with --yes to cut it (the whole journal is kept as a backup first)\n',
      );
      return exit(code);
    });
};
