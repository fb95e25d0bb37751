/**
 * `./pnpmw bench`: bundles the benchmarks (with the packages they measure) into one ES module
 * with esbuild, then runs it in a plain Node process — as a service runs Cohort, compiled,
 * rather than through tsx, whose loader thread alone holds about 35 MB of resident memory and
 * would count in every peak-memory figure. Arguments are passed on; the exit code is the run's.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const entry = fileURLToPath(new URL('../src/main.ts', import.meta.url));
const outfile = fileURLToPath(new URL('../dist/bench.mjs', import.meta.url));

await build({
  entryPoints: [entry],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: 'linked',
  logLevel: 'warning',
});

const run = spawn(process.execPath, ['--enable-source-maps', outfile, ...process.argv.slice(2)], { stdio: 'inherit' });
run.on('exit', (code, signal) => {
  if (signal) process.kill(process.pid, signal);
  process.exit(code ?? 1);
});
