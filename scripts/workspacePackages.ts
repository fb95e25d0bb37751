/**
 * The packages of the workspace (every directory under packages/ with a package.json), in
 * dependency order, and the checks that a published one follows the pattern of
 * docs/internals/packages.md. The build and the install test both start here, so a new
 * package is built, packed and installed without being listed anywhere.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The fields of a package.json that the build and the checks read. */
export interface Manifest {
  readonly name: string;
  readonly version: string;
  readonly private?: boolean;
  readonly description?: string;
  readonly license?: string;
  readonly type?: string;
  readonly engines?: Record<string, string>;
  readonly exports?: Record<string, string>;
  readonly bin?: unknown;
  readonly files?: readonly string[];
  readonly publishConfig?: {
    readonly exports?: Record<string, { readonly types?: string; readonly default?: string }>;
    readonly bin?: Record<string, string>;
  };
  readonly dependencies?: Record<string, string>;
  readonly devDependencies?: Record<string, string>;
  readonly peerDependencies?: Record<string, string>;
}

/** One directory under packages/. */
export interface WorkspacePackage {
  /** Absolute path of the package directory. */
  readonly dir: string;
  readonly manifest: Manifest;
  /** Names of the workspace packages it depends on (`workspace:*`). */
  readonly workspaceDeps: readonly string[];
  /** Published packages are built, packed and installed; private ones (the benchmarks) are not. */
  readonly published: boolean;
}

/**
 * The Node versions every published package supports: the active LTS lines, 22 and 24, which the
 * install test runs them on; from 22.12, where `require()` of an ES module needs no flag.
 */
export const NODE_ENGINES = '>=22.12';

/**
 * Every package under `root/packages`, dependencies before dependents.
 *
 * @example
 * const names = workspacePackages(process.cwd()).filter((p) => p.published).map((p) => p.manifest.name);
 */
export function workspacePackages(root: string): WorkspacePackage[] {
  const dirs = readdirSync(join(root, 'packages'), { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(root, 'packages', d.name, 'package.json')))
    .map((d) => join(root, 'packages', d.name))
    .sort();
  const packages = dirs.map((dir): WorkspacePackage => {
    const manifest = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest;
    const workspaceDeps = Object.entries({ ...manifest.dependencies, ...manifest.peerDependencies })
      .filter(([, spec]) => spec.startsWith('workspace:'))
      .map(([name]) => name)
      .sort();
    return { dir, manifest, workspaceDeps, published: manifest.private !== true };
  });
  return dependencyOrder(packages);
}

function dependencyOrder(packages: readonly WorkspacePackage[]): WorkspacePackage[] {
  const byName = new Map(packages.map((p) => [p.manifest.name, p]));
  const ordered: WorkspacePackage[] = [];
  const seen = new Set<string>();
  const visit = (p: WorkspacePackage, path: readonly string[]): void => {
    if (seen.has(p.manifest.name)) return;
    if (path.includes(p.manifest.name)) throw new Error(`workspace dependency cycle: ${[...path, p.manifest.name].join(' → ')}`);
    for (const dep of p.workspaceDeps) {
      const d = byName.get(dep);
      if (d) visit(d, [...path, p.manifest.name]);
    }
    seen.add(p.manifest.name);
    ordered.push(p);
  };
  for (const p of packages) visit(p, []);
  return ordered;
}

/** `./src/x/index.ts` → `./dist/x/index` (without extension). */
function distBase(sourcePath: string): string | null {
  const m = /^\.\/src\/(.+)\.ts$/.exec(sourcePath);
  return m ? `./dist/${m[1]}` : null;
}

/**
 * What a published package lacks to be installable, one sentence each (empty when it follows
 * the pattern). Private packages are not checked, but nothing published may depend on one.
 */
export function packageProblems(pkg: WorkspacePackage, all: readonly WorkspacePackage[]): string[] {
  if (!pkg.published) return [];
  const m = pkg.manifest;
  const problems: string[] = [];
  const need = (ok: boolean, text: string): void => void (ok || problems.push(text));
  need(typeof m.description === 'string' && m.description.length > 0, 'needs a "description"');
  need(m.license === 'MIT', 'needs "license": "MIT"');
  need(m.type === 'module', 'needs "type": "module"');
  need(m.engines?.['node'] === NODE_ENGINES, `needs "engines": { "node": "${NODE_ENGINES}" }`);
  need((m.files ?? []).includes('dist'), 'needs "files" to include "dist"');
  need(m.bin === undefined, 'declares "bin" at the top level: put it under "publishConfig" (the workspace runs the source)');
  need(existsSync(join(pkg.dir, 'README.md')), 'needs a README.md');
  problems.push(...exportProblems(m), ...dependencyProblems(pkg, all), ...tsconfigProblems(pkg, all));
  return problems;
}

function exportProblems(m: Manifest): string[] {
  const problems: string[] = [];
  const entries = Object.entries(m.exports ?? {});
  if (entries.length === 0) problems.push('needs "exports" (".": "./src/index.ts")');
  for (const [key, source] of entries) {
    const base = typeof source === 'string' ? distBase(source) : null;
    if (!base) {
      problems.push(`"exports" ${key} must name a TypeScript file under ./src (got ${JSON.stringify(source)})`);
      continue;
    }
    const published = m.publishConfig?.exports?.[key];
    // `default`, not `import`: `require()` of the ES module (Node 22.12 on) resolves it too
    const want = { types: `${base}.d.ts`, default: `${base}.js` };
    if (published?.types !== want.types || published.default !== want.default || Object.keys(published).join() !== 'types,default') {
      problems.push(`"publishConfig.exports" ${key} must be ${JSON.stringify(want)}`);
    }
  }
  for (const key of Object.keys(m.publishConfig?.exports ?? {})) {
    if (!(key in (m.exports ?? {}))) problems.push(`"publishConfig.exports" ${key} has no source entry in "exports"`);
  }
  for (const [name, path] of Object.entries(m.publishConfig?.bin ?? {})) {
    if (!/^\.\/dist\/.+\.js$/.test(path)) problems.push(`"publishConfig.bin" ${name} must name a .js file under ./dist`);
  }
  return problems;
}

function dependencyProblems(pkg: WorkspacePackage, all: readonly WorkspacePackage[]): string[] {
  const problems: string[] = [];
  for (const [name, spec] of Object.entries(pkg.manifest.dependencies ?? {})) {
    const local = all.find((p) => p.manifest.name === name);
    if (local && spec !== 'workspace:*') problems.push(`depends on ${name} as ${spec}: use "workspace:*"`);
    else if (local && !local.published) problems.push(`depends on ${name}, which is private (not published)`);
    else if (!local && !/^\d+\.\d+\.\d+(-[\w.]+)?$/.test(spec)) problems.push(`depends on ${name}@${spec}: pin an exact version`);
  }
  return problems;
}

function tsconfigProblems(pkg: WorkspacePackage, all: readonly WorkspacePackage[]): string[] {
  const file = join(pkg.dir, 'tsconfig.build.json');
  if (!existsSync(file)) return ['needs a tsconfig.build.json (see docs/internals/packages.md)'];
  const config = JSON.parse(readFileSync(file, 'utf8')) as { extends?: string; references?: { path: string }[] };
  const problems: string[] = [];
  if (config.extends !== '../../tsconfig.package.json') problems.push('tsconfig.build.json must extend "../../tsconfig.package.json"');
  const have = (config.references ?? []).map((r) => r.path).sort();
  const want = pkg.workspaceDeps
    .map((name) => all.find((p) => p.manifest.name === name))
    .filter((p): p is WorkspacePackage => p !== undefined)
    .map((p) => `../${p.dir.split(/[\\/]/).pop() ?? ''}/tsconfig.build.json`)
    .sort();
  if (have.join() !== want.join()) {
    problems.push(
      `tsconfig.build.json "references" must name its workspace dependencies: ${JSON.stringify(want.map((path) => ({ path })))}`,
    );
  }
  return problems;
}
