/**
 * `./pnpmw build`: compiles every published package under packages/ to its dist/ (ES modules,
 * declarations, source maps) with `tsc -b` over the packages' tsconfig.build.json, after
 * checking that each follows the package pattern. Each dist/ is emptied first, so nothing of
 * a deleted source file is packed. Exits 1, naming the package and what it lacks, on failure.
 */
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { packageProblems, workspacePackages } from './workspacePackages.ts';
import type { WorkspacePackage } from './workspacePackages.ts';

/** What a build did: the packages it compiled, or why it could not. */
export type BuildResult =
  | { readonly ok: true; readonly packages: readonly WorkspacePackage[] }
  | { readonly ok: false; readonly message: string };

/**
 * Checks and compiles every published workspace package.
 *
 * @example
 * const built = buildPackages(process.cwd());
 * if (!built.ok) console.error(built.message);
 */
export function buildPackages(root: string): BuildResult {
  const all = workspacePackages(root);
  const published = all.filter((p) => p.published);
  const problems = published.flatMap((p) => packageProblems(p, all).map((text) => `  ${p.manifest.name}: ${text}`));
  if (problems.length > 0) {
    return { ok: false, message: `packages that do not follow docs/internals/packages.md:\n${problems.join('\n')}` };
  }
  for (const p of published) {
    rmSync(join(p.dir, 'dist'), { recursive: true, force: true });
    rmSync(join(p.dir, '.tsbuildinfo'), { force: true });
  }
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const projects = published.map((p) => relative(root, join(p.dir, 'tsconfig.build.json')));
  const run = spawnSync(process.execPath, [tsc, '-b', ...projects], { cwd: root, encoding: 'utf8' });
  if (run.status !== 0) {
    return { ok: false, message: `tsc -b ${projects.join(' ')} failed (exit ${run.status ?? run.signal}):\n${run.stdout}${run.stderr}` };
  }
  return { ok: true, packages: published };
}

if (import.meta.filename === process.argv[1]) {
  const started = performance.now();
  const built = buildPackages(join(import.meta.dirname, '..'));
  if (!built.ok) {
    process.stderr.write(`${built.message}\n`);
    process.exitCode = 1;
  } else {
    const seconds = ((performance.now() - started) / 1000).toFixed(1);
    process.stdout.write(`built ${built.packages.map((p) => p.manifest.name).join(', ')} in ${seconds} s\n`);
  }
}
