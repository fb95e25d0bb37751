/**
 * `./pnpmw bench [--quick] [--json] [--only 1,3]`: runs the scenarios, prints an aligned
 * table (scenario, Cohort, baseline, ratio, target, met?) and the peer comparison, and writes
 * `bench-results.json` in the current directory. Progress goes to stderr. Exits 0 even when a
 * target is missed (the table says which): a benchmark reports, it does not gate. Without
 * `--only`, the scenarios that run only when asked for (the soak) are left out.
 */
import { writeFileSync } from 'node:fs';
import { formatMarkdown, formatTable } from './formatTable.ts';
import { formatPeers, formatPeersMarkdown } from './peers/formatPeers.ts';
import { runBench, scenarios } from './runBench.ts';

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const json = args.includes('--json');
const markdown = args.includes('--markdown');
const onlyAt = args.indexOf('--only');
const only = onlyAt >= 0 ? (args[onlyAt + 1] ?? '').split(',') : null;
const unknown = args.filter((a, i) => !['--quick', '--json', '--markdown', '--only'].includes(a) && !(onlyAt >= 0 && i === onlyAt + 1));
if (unknown.length > 0) {
  console.error(`unknown argument(s): ${unknown.join(' ')}\nusage: bench [--quick] [--json] [--markdown] [--only 1,2,…]`);
  process.exit(2);
}

const selected = only ? scenarios.filter((s) => only.includes(s.id)) : scenarios.filter((s) => s.onlyWhenAsked !== true);
const log = (line: string): void => {
  process.stderr.write(`${line}\n`);
};
log(`cohort bench${quick ? ' --quick' : ''}: ${selected.map((s) => `${s.id} ${s.name}`).join(', ')}`);
const results = await runBench({ mode: quick ? 'quick' : 'full', log }, selected);
writeFileSync('bench-results.json', `${JSON.stringify(results, null, 2)}\n`);
if (json) console.log(JSON.stringify(results, null, 2));
else {
  const m = results.machine;
  console.log(markdown ? formatMarkdown(results.rows) : formatTable(results.rows));
  if (results.peers) {
    console.log('');
    console.log('W(n, 10): n children in parallel, 10 inserts each into its own view, merged; one child in ten throws');
    console.log(markdown ? formatPeersMarkdown(results.peers) : formatPeers(results.peers));
  }
  console.log('');
  console.log(
    `${m.cpus} × ${m.cpuModel}, ${m.memoryGb} GB, Node ${m.node}, ${m.platform}; ${results.seconds.toFixed(0)} s, peak RSS ${results.peakRssMb.toFixed(0)} MB, load average ${m.loadAverage.toFixed(1)}`,
  );
  const missed = results.rows.filter((r) => r.met === false);
  console.log(missed.length === 0 ? 'every target met' : `targets missed: ${missed.map((r) => r.id).join(', ')}`);
  console.log('results written to bench-results.json');
}
