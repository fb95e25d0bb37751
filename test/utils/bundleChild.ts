import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** How to start a child: its arguments to `node`, and how to remove its bundle, if one was made. */
export interface ChildCommand {
  readonly args: readonly string[];
  dispose(): Promise<void>;
}

type Esbuild = { build(options: Record<string, unknown>): Promise<unknown> };

/**
 * `node <bundle of entry>`: the TypeScript entry bundled into one ES module in a fresh
 * temporary folder (named from `prefix`), with the esbuild that tsx ships. A child started
 * through tsx costs over a second of CPU (tsx itself, then zod and rxjs through its loader);
 * the kill tests start dozens. CommonJS dependencies (node-postgres) get a `require` of their
 * own in the bundle. Throws when esbuild is not there.
 */
export async function bundleChild(entry: string, prefix: string): Promise<ChildCommand> {
  const esbuild = createRequire(createRequire(import.meta.url).resolve('tsx'))('esbuild') as Esbuild;
  const dir = await mkdtemp(join(tmpdir(), prefix));
  const outfile = join(dir, 'child.mjs');
  await esbuild.build({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile,
    logLevel: 'error',
    banner: { js: "import { createRequire as cohortRequire } from 'node:module'; const require = cohortRequire(import.meta.url);" },
  });
  return { args: [outfile], dispose: () => rm(dir, { recursive: true, force: true }) };
}
