/**
 * `./pnpmw bench`: bundles the benchmarks (with the packages they measure) into an ES module
 * with esbuild, then runs it in a plain Node process — as a service runs Cohort, compiled,
 * rather than through tsx, whose loader thread alone holds about 35 MB of resident memory and
 * would count in every peak-memory figure. The peer comparison starts a process per system from
 * a second bundle (`dist/peer.mjs`); the durable-merge scenarios' committer processes from a third (`dist/committer.mjs`), the durable workers from a fourth (`dist/durable.mjs`). Arguments are passed on; the exit code is the run's.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const source = (path) => fileURLToPath(new URL(`../src/${path}`, import.meta.url));
const outdir = fileURLToPath(new URL('../dist', import.meta.url));

// the benchmarks, and the entries of the processes they start (each peer for its memory, the PostgreSQL committers, the durable workers)
await build({
  entryPoints: {
    bench: source('main.ts'),
    peer: source('peers/peerProcessMain.ts'),
    committer: source('scenarios/committerMain.ts'),
    durable: source('scenarios/durableWorkerMain.ts'),
  },
  outdir,
  outExtension: { '.js': '.mjs' },
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: 'linked',
  logLevel: 'warning',
  // DBOS requires optional packages it may lack: the durable workers load it from node_modules
  external: ['@dbos-inc/dbos-sdk'],
  // node-postgres is CommonJS: its require() calls need one in an ES module bundle
  banner: { js: "import { createRequire as cohortRequire } from 'node:module'; const require = cohortRequire(import.meta.url);" },
});

const run = spawn(process.execPath, ['--enable-source-maps', join(outdir, 'bench.mjs'), ...process.argv.slice(2)], {
  stdio: 'inherit',
  env: {
    ...process.env,
    COHORT_BENCH_PEER_ENTRY: join(outdir, 'peer.mjs'),
    COHORT_BENCH_COMMITTER_ENTRY: join(outdir, 'committer.mjs'),
    COHORT_BENCH_DURABLE_ENTRY: join(outdir, 'durable.mjs'),
  },
});
run.on('exit', (code, signal) => {
  if (signal) process.kill(process.pid, signal);
  process.exit(code ?? 1);
});
