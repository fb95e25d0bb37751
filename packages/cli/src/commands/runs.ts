import { z } from 'zod';
import { inspectRuns, isDurableError } from '@cohort/durable';
import type { DurableRuns, DurableRunView } from '@cohort/durable';
import type { RegisterCommand } from '../CliCommand.ts';
import type { CliIo } from '../CliIo.ts';
import { optionValue, wholeNumberOption } from '../optionValue.ts';

/** The system database's URL, checked where it enters. */
const SystemDatabaseSchema = z
  .string()
  .regex(/^postgres(ql)?:\/\/[^/]+\/[^/?]+/i, 'expected the URL of a system database, postgres://host/name');

/** A run id as `durable.run` takes it. */
const RunIdSchema = z.string().regex(/^[^/]{1,200}$/, 'expected a run id: 1 to 200 characters, no /');

/**
 * `cohort runs list <system-db>` and `cohort runs show <system-db> <id>`: the durable runs of
 * a DBOS system database, read-only — each run's status and the worker running it; for one
 * run, every unit of its tree, where it ran and each resume. Exit 1 when the database cannot
 * be read or the run does not exist, 2 on a usage error.
 */
export const registerRuns: RegisterCommand = (program, context) => {
  const runs = program
    .command('runs')
    .description('list durable runs and show one, with the worker that ran each unit (read-only)')
    .addHelpText(
      'after',
      '\nExamples:\n  cohort runs list postgres://postgres@127.0.0.1:5432/app_dbos\n  cohort runs show postgres://postgres@127.0.0.1:5432/app_dbos survey-1 --json\n',
    );
  registerList(runs, context);
  registerShow(runs, context);
};

const registerList: RegisterCommand = (runs, { io, exit }) => {
  runs
    .command('list')
    .description('the newest durable runs: status, worker, version, outcome')
    .argument('<system-db>', 'the URL of the DBOS system database the workers share', optionValue(SystemDatabaseSchema))
    .addOption(wholeNumberOption('--limit <n>', 'at most N runs (default 50)', 1, 10_000))
    .option('--json', 'machine-readable output')
    .action(async (url: string, flags: { limit?: number; json?: true }) => {
      exit(
        await withRuns(url, io, async (db) => {
          const list = await db.list(flags.limit ?? 50);
          if (flags.json) {
            io.out.write(`${JSON.stringify({ runs: list, workers: await db.workers() }, null, 2)}\n`);
            return 0;
          }
          if (list.length === 0) {
            io.out.write('no durable runs\n');
            return 0;
          }
          io.out.write(
            table(
              ['id', 'body', 'status', 'outcome', 'worker', 'version', 'started'],
              list.map((r) => [r.id, r.body, r.status, r.outcome ?? '—', r.executor ?? '—', r.applicationVersion ?? '—', r.createdAt]),
            ),
          );
          return 0;
        }),
      );
    });
};

const registerShow: RegisterCommand = (runs, { io, exit }) => {
  runs
    .command('show')
    .description('one durable run: every unit of its tree, its status, the worker that ran it and each resume')
    .argument('<system-db>', 'the URL of the DBOS system database the workers share', optionValue(SystemDatabaseSchema))
    .argument('<id>', 'the run id', optionValue(RunIdSchema))
    .option('--json', 'machine-readable output')
    .action(async (url: string, id: string, flags: { json?: true }) => {
      exit(
        await withRuns(url, io, async (db) => {
          const run = await db.show(id);
          if (!run) {
            io.err.write(`no durable run has id ${JSON.stringify(id)} (\`cohort runs list ${url}\` lists them)\n`);
            return 1;
          }
          io.out.write(flags.json ? `${JSON.stringify(run, null, 2)}\n` : shown(run));
          return 0;
        }),
      );
    });
};

/** Opens the runs of `url`, runs `use`, closes them; a database that cannot be read is exit 1. */
async function withRuns(url: string, io: CliIo, use: (db: DurableRuns) => Promise<number>): Promise<number> {
  let db: DurableRuns;
  try {
    db = await inspectRuns(url);
  } catch (err) {
    io.err.write(`${isDurableError(err) ? err.message : String(err)}\n`);
    return 1;
  }
  try {
    return await use(db);
  } finally {
    await db.close();
  }
}

function shown(run: DurableRunView): string {
  const head = `run ${run.id}: ${run.body}, ${run.status}${run.outcome ? ` (${run.outcome})` : ''}, version ${run.applicationVersion ?? '—'}\n`;
  const rows = run.units.map((u) => {
    const depth = u.id.split('/').length - 1;
    const resumes = u.starts.length > 1 ? `, started ${u.starts.length} times (${u.starts.map((s) => s.executor).join(' → ')})` : '';
    return [`${'  '.repeat(depth)}${u.id}`, u.name ?? u.body, u.status, u.outcome ?? '—', `${u.executor ?? '—'}${resumes}`];
  });
  return head + table(['unit', 'session', 'status', 'outcome', 'worker'], rows);
}

/** Rows under a header, in columns as wide as their widest cell. */
function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const all = [header, ...rows];
  const widths = header.map((_, i) => Math.max(...all.map((r) => (r[i] ?? '').length)));
  return all.map((r) => `${r.map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i] ?? 0))).join('  ')}\n`).join('');
}
