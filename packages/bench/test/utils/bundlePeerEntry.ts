import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

/**
 * Bundles the peer process's entry as `./pnpmw bench` does and points the harness at it, so
 * that each peer's process starts as plain Node instead of compiling the workspace through tsx
 * (seconds each on a loaded machine). Returns the clean-up.
 */
export async function bundlePeerEntry(): Promise<() => void> {
  const dir = mkdtempSync(join(tmpdir(), 'cohort-bench-peer-'));
  const outfile = join(dir, 'peer.mjs');
  await build({
    entryPoints: [fileURLToPath(new URL('../../src/peers/peerProcessMain.ts', import.meta.url))],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    logLevel: 'warning',
  });
  process.env['COHORT_BENCH_PEER_ENTRY'] = outfile;
  return () => {
    delete process.env['COHORT_BENCH_PEER_ENTRY'];
    rmSync(dir, { recursive: true, force: true });
  };
}
