import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const committer = fileURLToPath(new URL('../src/scenarios/committerMain.ts', import.meta.url));

/** Runs the committer process's source with `arg` as its one argument. */
function runCommitter(arg: string): { status: number | null; stderr: string; stdout: string } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', committer, arg], { encoding: 'utf8', timeout: 60_000 });
  return { status: r.status, stderr: r.stderr, stdout: r.stdout };
}

it('children - a committer process given bad arguments says which and exits with code 2, before it opens anything', () => {
  const missing = runCommitter(JSON.stringify({ store: { kind: 'pg', url: 'postgres://127.0.0.1/test' }, committers: 0 }));
  expect(missing.status).toBe(2);
  expect(missing.stdout).toBe('');
  expect(missing.stderr).toContain('committer process: bad input');
  for (const field of ['committers', 'perCommitter', 'store.schema']) expect(missing.stderr).toContain(`at ${field}`);

  const garbled = runCommitter('{not json');
  expect(garbled.status).toBe(2);
  expect(garbled.stderr).toContain('committer process: bad input: not JSON: {not json');
});
