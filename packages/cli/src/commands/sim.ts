import { z } from 'zod';
import { SimMutationSchema, SimTally, formatTrace, simulate } from '@cohort/sim';
import type { SimOptions, SimReport, SimSummary } from '@cohort/sim';

/** Where the command writes (a TTY gets a progress bar). */
interface SimOutput {
  write(text: string): void;
  readonly isTTY?: boolean;
}

const USAGE = `usage: cohort sim [--seeds A..B | --seed N] [--trace] [--json] [--store auto|memory|file] [--mutation NAME]

  --seeds A..B   run every seed from A to B (default 1..100) and print a summary
  --seed N       run one seed; with --trace, print its timeline and each invariant
  --json         machine-readable output (the whole report for --seed N)
  --store        force the memory or the file store (default: the seed chooses)
  --mutation     run a deliberately broken variant (${SimMutationSchema.options.join(', ')}), to watch the checker fail
`;

/** The command line of `cohort sim`, checked at the boundary. */
const SimArgsSchema = z.object({
  from: z.number().int().nonnegative(),
  to: z.number().int().nonnegative(),
  single: z.boolean(),
  trace: z.boolean(),
  json: z.boolean(),
  store: z.enum(['auto', 'memory', 'file']),
  mutation: SimMutationSchema.optional(),
}).refine((a) => a.from <= a.to, { message: 'the seed range is empty (A must be ≤ B)' });
type SimArgs = z.infer<typeof SimArgsSchema>;

function parseArgs(args: readonly string[]): SimArgs | string {
  const raw: Record<string, unknown> = { from: 1, to: 100, single: false, trace: false, json: false, store: 'auto' };
  for (let i = 0; i < args.length; i += 1) {
    const [flag, inline] = (args[i] ?? '').split(/=(.*)/s, 2) as [string, string | undefined];
    const value = (): string => inline ?? args[(i += 1)] ?? '';
    if (flag === '--trace') raw['trace'] = true;
    else if (flag === '--json') raw['json'] = true;
    else if (flag === '--store') raw['store'] = value();
    else if (flag === '--mutation') raw['mutation'] = value();
    else if (flag === '--seed') {
      const n = Number(value());
      Object.assign(raw, { from: n, to: n, single: true });
    } else if (flag === '--seeds') {
      const m = /^(\d+)\.\.(\d+)$/.exec(value());
      if (!m) return '--seeds takes a range A..B, e.g. --seeds 1..500';
      Object.assign(raw, { from: Number(m[1]), to: Number(m[2]) });
    } else return `unknown argument: ${flag}`;
  }
  const parsed = SimArgsSchema.safeParse(raw);
  return parsed.success ? parsed.data : `invalid arguments: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'seeds'}: ${i.message}`).join('; ')}`;
}

/**
 * `cohort sim`: runs deterministic simulations and checks their invariants. `--seeds A..B`
 * prints a summary table (runs, sessions, merges, failures by kind, violations, time) and
 * exits 1 on any violation, naming the command that replays the failing seed; `--seed N
 * --trace` prints that run's timeline; `--json` is for machines. Exit 2 on bad arguments.
 *
 * @example
 * const code = await runSim(['--seeds', '1..20'], process.stdout);
 */
export async function runSim(args: string[], out: SimOutput): Promise<number> {
  const parsed = parseArgs(args);
  if (typeof parsed === 'string') {
    out.write(`${parsed}\n\n${USAGE}`);
    return 2;
  }
  const options = (seed: number): SimOptions => ({ seed, store: parsed.store, ...(parsed.mutation ? { mutation: parsed.mutation } : {}) });
  if (parsed.single) return runOne(await simulate(options(parsed.from)), parsed, out);
  const tally = new SimTally();
  const started = performance.now();
  const total = parsed.to - parsed.from + 1;
  const progress = out.isTTY === true && !parsed.json;
  for (let seed = parsed.from; seed <= parsed.to; seed += 1) {
    tally.add(await simulate(options(seed)));
    if (progress) out.write(`\r${bar(seed - parsed.from + 1, total, tally.summary().violations.length)}`);
  }
  if (progress) out.write('\r\x1b[2K');
  const summary = tally.summary();
  const seconds = (performance.now() - started) / 1000;
  if (parsed.json) out.write(`${JSON.stringify(jsonSummary(parsed, summary, seconds), null, 2)}\n`);
  else out.write(table(parsed, summary, seconds));
  return summary.violations.length > 0 ? 1 : 0;
}

function runOne(report: SimReport, args: SimArgs, out: SimOutput): number {
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

function bar(done: number, total: number, violations: number): string {
  const width = 30;
  const filled = Math.round((done / total) * width);
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total} seeds${violations > 0 ? `, ${violations} violating` : ''}`;
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
