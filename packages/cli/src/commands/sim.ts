import { Option } from 'commander';
import type { Command } from 'commander';
import { z } from 'zod';
import { SimMutationSchema, SimTally, formatTrace, simulate } from '@cohort/sim';
import type { SimMutation, SimOptions, SimReport, SimSummary } from '@cohort/sim';
import type { RegisterCommand } from '../CliCommand.ts';
import type { CliIo, CliOutput } from '../CliIo.ts';
import { optionValue, wholeNumberOption } from '../optionValue.ts';
import { startProgress } from '../progressBar.ts';

/** What `cohort sim` runs, after its options are checked. */
interface SimArgs {
  readonly from: number;
  readonly to: number;
  readonly single: boolean;
  readonly trace: boolean;
  readonly json: boolean;
  readonly store: 'auto' | 'memory' | 'file';
  readonly mutation: SimMutation | undefined;
  readonly html: string | undefined;
}

/** The options as commander hands them over. */
interface SimFlags {
  readonly seeds?: { readonly from: number; readonly to: number };
  readonly seed?: number;
  readonly trace?: true;
  readonly json?: true;
  readonly store: 'auto' | 'memory' | 'file';
  readonly mutation?: SimMutation;
  readonly html?: string;
}

const MAX_SEED = 2 ** 32 - 1;

/** `--seeds A..B`: an inclusive, non-empty range of seeds. */
const SeedRangeSchema = z
  .string()
  .regex(/^\d+\.\.\d+$/, 'expected a range A..B of whole numbers, e.g. 1..500')
  .transform((s) => s.split('..').map(Number) as [number, number])
  .refine(([from, to]) => from <= to, 'the range is empty: A must be at most B')
  .refine(([, to]) => to <= MAX_SEED, `seeds go up to ${MAX_SEED}`)
  .transform(([from, to]) => ({ from, to }));

/**
 * `cohort sim`: runs deterministic simulations and checks their invariants. `--seeds A..B`
 * prints a summary table (runs, sessions, merges, failures by kind, violations, time) and
 * exits 1 on any violation, naming the command that replays the failing seed; `--seed N
 * --trace` prints that run's timeline; `--json` is for machines; a progress bar on a
 * terminal only. Exit 2 on bad arguments.
 */
export const registerSim: RegisterCommand = (program, { io, exit }) => {
  program
    .command('sim')
    .description('run seeded simulations of whole session trees and check their invariants')
    .addOption(
      new Option('--seeds <A..B>', 'run every seed from A to B and print a summary (default 1..100)').argParser(
        optionValue(SeedRangeSchema),
      ),
    )
    .addOption(
      wholeNumberOption('--seed <n>', 'run one seed; with --trace, print its timeline and each invariant', 0, MAX_SEED).conflicts('seeds'),
    )
    .option('--trace', "print the run's timeline (with --seed)")
    .option('--json', 'machine-readable output (the whole report for --seed N)')
    .addOption(
      new Option('--store <kind>', 'the store under the simulated runtime (auto: the seed chooses)')
        .choices(['auto', 'memory', 'file'])
        .default('auto'),
    )
    .addOption(
      new Option('--mutation <name>', 'run a deliberately broken variant, to watch the checker fail').choices(SimMutationSchema.options),
    )
    .addOption(
      new Option(
        '--html <file>',
        'write the run report of the seed to <file> (with --seed): every epoch, session, merge and failure',
      ).conflicts('seeds'),
    )
    .addHelpText(
      'after',
      '\nExamples:\n  cohort sim --seeds 1..300\n  cohort sim --seed 17 --trace\n  cohort sim --seed 17 --html seed-17.html\n',
    )
    .action(async (flags: SimFlags, command: Command) => {
      if (flags.html !== undefined && flags.seed === undefined)
        command.error("error: option '--html <file>' needs '--seed <n>' (one seed, one report)", { exitCode: 2 });
      exit(await runSim(toArgs(flags), io));
    });
};

function toArgs(flags: SimFlags): SimArgs {
  const range = flags.seed !== undefined ? { from: flags.seed, to: flags.seed } : (flags.seeds ?? { from: 1, to: 100 });
  return {
    ...range,
    single: flags.seed !== undefined,
    trace: flags.trace === true,
    json: flags.json === true,
    store: flags.store,
    mutation: flags.mutation,
    html: flags.html,
  };
}

async function runSim(args: SimArgs, io: CliIo): Promise<number> {
  const options = (seed: number): SimOptions => ({ seed, store: args.store, ...(args.mutation ? { mutation: args.mutation } : {}) });
  if (args.single) {
    const report = await simulate(options(args.from));
    const code = runOne(report, args, io.out);
    if (args.html === undefined) return code;
    const { recordEvents } = await import('@cohort/report');
    const { writeHtmlReport } = await import('../report/writeHtmlReport.ts');
    const written = await writeHtmlReport(recordEvents(report.timeline, { title: `cohort sim, seed ${report.seed}` }), args.html, io);
    return Math.max(code, written);
  }
  const tally = new SimTally();
  const started = performance.now();
  // on stderr, so `--json > file` on a terminal still shows it and the file stays clean
  const bar = startProgress(io.err, args.to - args.from + 1, '[{bar}] {value}/{total} seeds{violating}', { violating: '' });
  let violating = 0;
  for (let seed = args.from; seed <= args.to; seed += 1) {
    const report = await simulate(options(seed));
    tally.add(report);
    if (!report.ok) violating += 1;
    bar.update(seed - args.from + 1, { violating: violating > 0 ? `, ${violating} violating` : '' });
  }
  bar.stop();
  const summary = tally.summary();
  const seconds = (performance.now() - started) / 1000;
  if (args.json) io.out.write(`${JSON.stringify(jsonSummary(args, summary, seconds), null, 2)}\n`);
  else io.out.write(table(args, summary, seconds));
  return summary.violations.length > 0 ? 1 : 0;
}

function runOne(report: SimReport, args: SimArgs, out: CliOutput): number {
  if (args.json) out.write(`${JSON.stringify(report, null, 2)}\n`);
  else if (args.trace) out.write(formatTrace(report));
  else {
    const tally = new SimTally();
    tally.add(report);
    out.write(table(args, tally.summary(), null));
    for (const inv of report.invariants) out.write(`  ${inv.ok ? 'ok  ' : 'FAIL'} (${inv.id}) ${inv.name}: ${inv.detail[0] ?? ''}\n`);
  }
  if (!report.ok && !args.json) out.write(`\nreplay: ${replayCommand(report.seed, args)}\n`);
  return report.ok ? 0 : 1;
}

/** The exact command that replays one seed with the same options. */
export function replayCommand(seed: number, args: Pick<SimArgs, 'store' | 'mutation'>): string {
  const extra = `${args.store !== 'auto' ? ` --store ${args.store}` : ''}${args.mutation ? ` --mutation ${args.mutation}` : ''}`;
  return `./pnpmw cohort sim --seed ${seed} --trace${extra}`;
}

function table(args: SimArgs, s: SimSummary, seconds: number | null): string {
  const failures = Object.values(s.failures).reduce((a, b) => a + b, 0);
  const rows: [string, string][] = [
    ['runs', fmt(s.runs)],
    ['sessions', fmt(s.sessions)],
    ['merges', fmt(s.merges)],
    ['process crashes', fmt(s.crashes)],
    ['failures', fmt(failures)],
    ...Object.entries(s.failures).map(([kind, n]): [string, string] => [`  ${kind}`, fmt(n)]),
    ['invariant violations', fmt(s.violations.length)],
    ...Object.entries(s.violationsByInvariant).map(([name, n]): [string, string] => [`  ${name}`, fmt(n ?? 0)]),
    ...(seconds !== null ? [['time', `${seconds.toFixed(1)} s`] as [string, string]] : []),
  ];
  const width = Math.max(...rows.map(([k]) => k.length));
  const valueWidth = Math.max(...rows.map(([, v]) => v.length));
  const title = args.from === args.to ? `seed ${args.from}` : `seeds ${args.from}..${args.to}`;
  let text = `cohort sim — ${title}${args.mutation ? ` (mutation: ${args.mutation})` : ''}\n\n`;
  text += rows.map(([k, v]) => `  ${k.padEnd(width)}  ${v.padStart(valueWidth)}\n`).join('');
  if (s.violations.length === 0 || args.from === args.to) return text;
  text += '\nviolations\n';
  for (const v of s.violations.slice(0, 10)) text += `  seed ${v.seed}: ${v.invariants.join(', ')} — ${v.detail}\n`;
  if (s.violations.length > 10) text += `  … and ${s.violations.length - 10} more seeds\n`;
  const first = s.violations[0];
  if (first) text += `\nreplay the first failing seed:\n  ${replayCommand(first.seed, args)}\n`;
  return text;
}

function jsonSummary(args: SimArgs, s: SimSummary, seconds: number): unknown {
  return {
    seeds: { from: args.from, to: args.to },
    ...(args.mutation ? { mutation: args.mutation } : {}),
    ...s,
    violations: s.violations.map((v) => ({ ...v, replay: replayCommand(v.seed, args) })),
    seconds: Math.round(seconds * 10) / 10,
    ok: s.violations.length === 0,
  };
}

function fmt(n: number): string {
  return n.toLocaleString('en-US');
}
