import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** How to start a child: its arguments to `node`, and how to remove its bundle, if one was made. */
export interface ChildCommand {
  readonly args: readonly string[];
  dispose(): Promise<void>;
}

type Esbuild = { build(options: Record<string, unknown>): Promise<unknown> };

/** Where a bundle goes and what it leaves out. */
export interface BundleOptions {
  /** The folder the bundle's temporary folder is made in (default: the system's); packages left `external` resolve from there. */
  readonly near?: string;
  /** Packages the bundle imports rather than holds. */
  readonly external?: readonly string[];
}

/**
 * `node <bundle of entry>`: the TypeScript entry bundled into one ES module in a fresh
 * temporary folder (named from `prefix`), with the esbuild that tsx ships. A child started
 * through tsx costs over a second of CPU (tsx itself, then zod and rxjs through its loader);
 * the kill tests start dozens. CommonJS dependencies (node-postgres) get a `require` of their
 * own in the bundle. Throws when esbuild is not there.
 */
export async function bundleChild(entry: string, prefix: string, options: BundleOptions = {}): Promise<ChildCommand> {
  const esbuild = createRequire(createRequire(import.meta.url).resolve('tsx'))('esbuild') as Esbuild;
  if (options.near) await mkdir(options.near, { recursive: true });
  const dir = await mkdtemp(join(options.near ?? tmpdir(), prefix));
  const outfile = join(dir, 'child.mjs');
  await esbuild.build({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile,
    logLevel: 'error',
    external: [...(options.external ?? [])],
    banner: { js: "import { createRequire as cohortRequire } from 'node:module'; const require = cohortRequire(import.meta.url);" },
  });
  return { args: [outfile], dispose: () => rm(dir, { recursive: true, force: true }) };
}
