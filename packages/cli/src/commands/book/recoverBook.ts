import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import { recoverCopy } from '@cohort/store';
import type { RecoverConflict, RecoverResult } from '@cohort/store';
import type { RegisterCommand } from '../../CliCommand.ts';
import type { CliIo } from '../../CliIo.ts';
import { json, rows } from './bookFormat.ts';

interface RecoverFlags {
  readonly json?: true;
}

const clip = (text: string | null, width = 60): string => {
  const t = (text ?? '—').replace(/\s+/g, ' ');
  return t.length > width ? `${t.slice(0, width - 1)}…` : t;
};

function conflictLines(conflicts: readonly RecoverConflict[]): string {
  return conflicts
    .map((c) => {
      const flag = (active: boolean): string => (active ? '' : ' (removed)');
      return `    ${c.skillId}  ${clip(c.live.issue, 40)}\n      live: ${clip(c.live.insight)}${flag(c.live.active)}\n      copy: ${clip(c.copy.insight)}${flag(c.copy.active)}\n`;
    })
    .join('');
}

function print(r: Extract<RecoverResult, { ok: true }>, io: CliIo): void {
  const moved = r.taken.filter((t) => t.id !== t.copyId);
  io.out.write(`${basename(r.copy)} → ${r.document} (revision ${r.revision})\n`);
  io.out.write(
    rows([
      [
        'taken',
        `${r.taken.length} skill${r.taken.length === 1 ? '' : 's'} the live document lacked${
          moved.length > 0
            ? ` (${moved.length} under a new id: ${moved
                .slice(0, 5)
                .map((t) => `${t.copyId} → ${t.id}`)
                .join(', ')}${moved.length > 5 ? ', …' : ''})`
            : ''
        }`,
      ],
      ['already there', r.already],
      ['not taken', `${r.conflicts.length} skill${r.conflicts.length === 1 ? '' : 's'} the live document holds otherwise`],
    ]),
  );
  if (r.conflicts.length > 0) {
    io.out.write(`\n  conflicts (the live side stays; merge by hand, or through a session's update_skill):\n${conflictLines(r.conflicts)}`);
  }
  io.out.write(
    r.conflicts.length === 0
      ? `\nthe live document holds everything in the copy: you can delete ${basename(r.copy)} and its .meta.json\n`
      : `\nthe copy is unchanged: delete it and its .meta.json once the conflicts are settled\n`,
  );
}

/**
 * `cohort book recover <path> <copy> [--json]`: merges a recovery copy back into the live
 * document (the skills it lacks; the conflicts it cannot take are shown). Writes through the
 * store, under its lock. Exit 1 when the copy or the store cannot be read.
 */
export const registerRecoverBook: RegisterCommand = (book, { io, exit }) => {
  book
    .command('recover')
    .description('merge a recovery copy back into the live document; show the conflicts it cannot take (writes, under the lock)')
    .argument('<path>', "the store's document, e.g. data/skillbook.json")
    .argument('<copy>', 'the recovery copy, e.g. data/skillbook.recovery-1f3a….json')
    .option('--json', 'machine-readable output (taken, already, conflicts with both sides)')
    .action(async (path: string, copy: string, flags: RecoverFlags) => {
      const missing = await stat(path).then(
        (s) => (s.isFile() ? null : `${path} is not a file`),
        () => `${path} does not exist (give the store's document, e.g. data/skillbook.json)`,
      );
      if (missing) {
        io.err.write(`cohort book recover: ${missing}\n`);
        exit(1);
        return;
      }
      const r = await recoverCopy(path, copy, { lockWaitMs: 10_000 });
      if (!r.ok) {
        if (flags.json) io.out.write(json(r));
        else io.err.write(`cohort book recover: ${r.error.message} (${r.error.code})\n`);
        exit(1);
        return;
      }
      if (flags.json) io.out.write(json(r));
      else print(r, io);
      exit(0);
    });
};
