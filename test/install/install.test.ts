/**
 * The packages install into someone else's project: every package under packages/ is built
 * and packed as it would be published, the tarballs are installed with npm into a scratch
 * project outside the workspace, and that project runs them with plain `node` of each
 * supported line (22 and 24: binaries from the registry's `node` package), `import` and
 * `require`, type-checks against their declarations with `tsc --strict` and no
 * `skipLibCheck`, and runs the `cohort` bin. publint and attw check each tarball. Runs as its
 * own step (`./pnpmw test:install`, in CI); it needs the npm registry for the third-party
 * dependencies and the Node binaries (cached by npm after the first run).
 */
import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { publint } from 'publint';
import { formatMessage } from 'publint/utils';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildPackages } from '../../scripts/build.ts';
import { NODE_ENGINES, packageProblems, workspacePackages } from '../../scripts/workspacePackages.ts';
import type { WorkspacePackage } from '../../scripts/workspacePackages.ts';
import { env, freePort, mcpOverStdio, ok, run, runAsync, sleep, until } from './processes.ts';
import type { Ran } from './processes.ts';

const root = join(import.meta.dirname, '..', '..');
const fixture = join(import.meta.dirname, 'fixture');
const all = workspacePackages(root);
const published = all.filter((p) => p.published);
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

const scratch = mkdtempSync(join(tmpdir(), 'cohort-install-'));
/** The Node lines the packages support (see `NODE_ENGINES`), each run from its own binary. */
const NODE_LINES = ['22', '24'] as const;
/** Where each line's `node` is, once `beforeAll` has installed it. */
const nodeOf = (line: string): string => join(scratch, `node-${line}`, 'node_modules', 'node', 'bin', 'node');
const tarballDir = join(scratch, 'tarballs');
const app = join(scratch, 'app');
const tarballs = new Map<string, string>();
/** attw's verdict per package, one run at a time, started as soon as the tarballs exist. */
const attwRuns = new Map<string, Promise<Ran>>();

function tarballOf(p: WorkspacePackage): string {
  const file = tarballs.get(p.manifest.name);
  if (!file) throw new Error(`${p.manifest.name} was not packed (see the failure of the setup above)`);
  return file;
}

function pack(p: WorkspacePackage): string {
  const before = new Set(readdirSync(tarballDir));
  ok(run(join(root, 'pnpmw'), ['-C', relative(root, p.dir), 'pack', '--pack-destination', tarballDir], root));
  const made = readdirSync(tarballDir).filter((f) => !before.has(f));
  if (made.length !== 1) throw new Error(`pnpm pack of ${p.manifest.name} made ${made.length} tarballs: ${made.join(', ')}`);
  return join(tarballDir, made[0] ?? '');
}

/** A project outside the workspace that depends on every tarball (overrides keep npm from looking @cohort/* up on the registry). */
function writeApp(): void {
  mkdirSync(app);
  const deps = Object.fromEntries(published.map((p) => [p.manifest.name, `file:${relative(app, tarballOf(p))}`]));
  // the consumer's Node types: the version the workspace pins
  const nodeTypes = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { devDependencies: Record<string, string> })
    .devDependencies['@types/node'];
  writeFileSync(
    join(app, 'package.json'),
    `${JSON.stringify(
      {
        name: 'cohort-install-check',
        private: true,
        type: 'module',
        dependencies: deps,
        overrides: deps,
        devDependencies: { '@types/node': nodeTypes },
      },
      null,
      2,
    )}\n`,
  );
  writeFileSync(
    join(app, 'tsconfig.json'),
    `${JSON.stringify(
      {
        compilerOptions: {
          strict: true,
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          noEmit: true,
          types: ['node'],
          skipLibCheck: false,
        },
        files: ['consumer.ts'],
      },
      null,
      2,
    )}\n`,
  );
  copyFileSync(join(fixture, 'app.mjs'), join(app, 'app.mjs'));
  copyFileSync(join(fixture, 'consumer.ts'), join(app, 'consumer.ts'));
}

beforeAll(async () => {
  const built = buildPackages(root);
  if (!built.ok) throw new Error(built.message);
  mkdirSync(tarballDir);
  for (const p of published) tarballs.set(p.manifest.name, pack(p));
  let previous: Promise<unknown> = Promise.resolve();
  for (const p of published) {
    const args = [tarballOf(p), '--profile', 'esm-only', '--format', 'ascii', '--no-emoji', '--no-color'];
    const next = previous.then(() => runAsync(join(root, 'node_modules', '.bin', 'attw'), args, root));
    attwRuns.set(p.manifest.name, next);
    previous = next;
  }
  writeApp();
  const npmInstall = ['install', '--no-audit', '--no-fund', '--loglevel=error'];
  const nodes = NODE_LINES.map((line) => {
    const dir = join(scratch, `node-${line}`);
    mkdirSync(dir);
    writeFileSync(join(dir, 'package.json'), '{ "private": true }\n');
    return runAsync('npm', [...npmInstall, `node@${line}`], dir, 300_000);
  });
  const installed = await runAsync('npm', npmInstall, app, 300_000);
  if (installed.code !== 0)
    throw new Error(`npm install of the tarballs failed (it needs the npm registry for third-party packages):\n${installed.report}`);
  for (const node of await Promise.all(nodes)) if (node.code !== 0) throw new Error(`npm install of a Node binary failed:\n${node.report}`);
}, 600_000);

afterAll(() => {
  if (process.env['COHORT_KEEP_INSTALL'] === '1') process.stdout.write(`install test project kept in ${scratch}\n`);
  else rmSync(scratch, { recursive: true, force: true });
});

describe('every package under packages/', () => {
  it('follows the package pattern, or is private', () => {
    expect(published.map((p) => p.manifest.name)).toEqual(
      expect.arrayContaining(['@cohort/skillbook', '@cohort/store', '@cohort/runtime', '@cohort/cli', '@cohort/durable', '@cohort/mcp']),
    );
    expect(all.filter((p) => !p.published).map((p) => p.manifest.name)).toEqual(['@cohort/bench']);
    for (const p of published) expect(packageProblems(p, all), p.manifest.name).toEqual([]);
  });

  for (const p of published) {
    it(`${p.manifest.name} - publint reports nothing on its tarball`, async () => {
      const bytes = readFileSync(tarballOf(p));
      const tarball = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
      const { messages, pkg } = await publint({ pack: { tarball }, level: 'suggestion', strict: true });
      expect(messages.map((m) => `${m.type}: ${formatMessage(m, pkg) ?? m.code}`)).toEqual([]);
    });

    it(`${p.manifest.name} - attw reports nothing on its tarball (ES modules only; require() of them is run on each Node line below)`, async () => {
      const attw = await attwRuns.get(p.manifest.name);
      expect(attw?.code, attw?.report).toBe(0);
    });

    it(`${p.manifest.name} - installs from its tarball with real versions for workspace dependencies`, () => {
      const lock = JSON.parse(readFileSync(join(app, 'node_modules', '.package-lock.json'), 'utf8')) as {
        packages: Record<string, { resolved?: string }>;
      };
      expect(lock.packages[`node_modules/${p.manifest.name}`]?.resolved, 'installed from the packed tarball').toMatch(/^file:/);
      const manifest = JSON.parse(readFileSync(join(app, 'node_modules', p.manifest.name, 'package.json'), 'utf8')) as {
        dependencies?: Record<string, string>;
      };
      for (const [name, spec] of Object.entries(manifest.dependencies ?? {}))
        expect(spec, `${name} in ${p.manifest.name}`).toMatch(/^\d+\.\d+\.\d+/);
      expect(existsSync(join(app, 'node_modules', p.manifest.name, 'LICENSE'))).toBe(true);
    });

    it(`${p.manifest.name} - declares the Node versions it is tested on: ${NODE_ENGINES}`, () => {
      expect(p.manifest.engines?.['node']).toBe(NODE_ENGINES);
    });
  }

  it(`declares the oldest tested line from the version that requires ES modules on (${NODE_LINES[0]}.12)`, () => {
    expect(NODE_ENGINES).toBe(`>=${NODE_LINES[0]}.12`);
  });

  for (const line of NODE_LINES) {
    it(`every package loads in plain node ${line}, by import and by require, and exports its public API`, () => {
      const names = JSON.stringify(published.map((p) => p.manifest.name));
      const script = `for (const name of ${names}) console.log(name, Object.keys(await import(name)).length, Object.keys(require(name)).length);`;
      // `-e` runs CommonJS, so `require` is there; an async function lets it `await import()` too
      const r = ok(
        run(
          nodeOf(line),
          ['--no-warnings', '-e', `(async () => { ${script} })().catch((e) => { console.error(e); process.exit(1); });`],
          app,
        ),
      );
      const counts = r.stdout
        .trim()
        .split('\n')
        .map((row) => row.split(' '));
      expect(
        counts.map(([name]) => name),
        r.report,
      ).toEqual(published.map((p) => p.manifest.name));
      for (const [name, imported, required] of counts) {
        expect(Number(imported), `${name}: its exports`).toBeGreaterThan(0);
        expect(required, `${name}: require gives what import gives`).toBe(imported);
      }
    });
  }
});

describe('a project that installed the tarballs', () => {
  const document = join(scratch, 'store', 'skillbook.json');

  for (const line of NODE_LINES) {
    it(`runs a plain node ${line} ES module: a file store, parallel sessions with a crash and a commit, the book printed`, () => {
      mkdirSync(join(scratch, 'store'), { recursive: true });
      const r = ok(run(nodeOf(line), ['app.mjs', document], app));
      expect(r.stdout, r.report).toMatch(new RegExp(`^node v${line}\\.`, 'm'));
      expect(r.stdout).toContain('outcome: committed ["committed","failed"]');
      expect(r.stdout).toMatch(/writer \.+ committed/);
      expect(r.stdout).toMatch(/crasher \.+ failed \(crashed\): simulated crash; discarded 1 op/);
      expect(r.stdout).toContain('Issue: installed from a tarball');
      expect(r.stdout).not.toContain('crashed child');
      expect(r.stderr).toBe('');
    });
  }

  it("type-checks a consumer with tsc --strict and no skipLibCheck against the installed declarations, @cohort/ai's included", () => {
    const r = run(process.execPath, [tsc, '-p', 'tsconfig.json', '--strict'], app);
    expect(r.code, r.report).toBe(0);
  });

  it('runs the installed cohort bin: --version and book show on that store', () => {
    const cohort = join(app, 'node_modules', '@cohort', 'cli', 'dist', 'main.js');
    const bin = nodeOf(NODE_LINES[0]);
    expect(existsSync(join(app, 'node_modules', '.bin', 'cohort')), 'npm linked the cohort bin').toBe(true);
    const version = ok(run(bin, [cohort, '--version'], app));
    const cli = published.find((p) => p.manifest.name === '@cohort/cli');
    expect(version.stdout.trim()).toBe(cli?.manifest.version);
    const shown = ok(run(bin, [cohort, 'book', 'show', document], app));
    expect(shown.stdout).toContain('Issue: installed from a tarball');
    expect(shown.stdout).not.toContain('crashed child');
    expect(ok(run(bin, [cohort, 'book', 'verify', document], app)).stdout).toMatch(/^ok: /m);
  });

  it('runs the installed cohort mcp over stdio: an MCP client initializes, lists the tools, closes stdin, and the server exits 0', async () => {
    const cohort = join(app, 'node_modules', '@cohort', 'cli', 'dist', 'main.js');
    const { output, code } = await mcpOverStdio(nodeOf(NODE_LINES[0]), [cohort, 'mcp', '--memory'], app);
    expect(output).toContain('"name":"task.begin"');
    expect(code, output).toBe(0);
  });

  it("runs the README's service example: serves a request, refuses a bad one, stops cleanly on SIGTERM, keeps what it learned", async () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const section = readme.split('## Use it in your project')[1] ?? '';
    const code = /```js\n([\s\S]*?)```/.exec(section)?.[1];
    expect(code, 'README.md "Use it in your project" has a ```js service example').toBeDefined();
    writeFileSync(join(app, 'service.mjs'), code ?? '');
    const port = await freePort();
    const service = spawn(nodeOf(NODE_LINES[NODE_LINES.length - 1] ?? ''), ['service.mjs'], {
      cwd: app,
      env: { ...env, PORT: String(port) },
    });
    let output = '';
    service.stdout.on('data', (chunk: Buffer) => void (output += chunk.toString()));
    service.stderr.on('data', (chunk: Buffer) => void (output += chunk.toString()));
    const exited = once(service, 'exit') as Promise<[number | null, NodeJS.Signals | null]>;
    try {
      await until(
        () => output.includes(`listening on ${port}`),
        () => `the service did not start:\n${output}`,
      );
      const answer = await fetch(
        `http://127.0.0.1:${port}/learn?issue=${encodeURIComponent('served over HTTP')}&insight=${encodeURIComponent('one root session per request')}`,
      );
      expect(await answer.text()).toBe('committed\n');
      // no issue: the write is refused, and the service says so instead of "committed"
      const refused = await fetch(`http://127.0.0.1:${port}/learn?insight=${encodeURIComponent('an insight with no issue')}`);
      expect({ status: refused.status, text: await refused.text() }).toEqual({
        status: 400,
        text: expect.stringMatching(/^add_skill refused: invalid arguments: .*issue/s),
      });
      service.kill('SIGTERM');
      const [code, signal] = await Promise.race([exited, sleep(20_000).then(() => [null, 'timeout'] as const)]);
      expect({ code, signal }, `the service did not stop on SIGTERM by itself:\n${output}`).toEqual({ code: 0, signal: null });
    } finally {
      if (service.exitCode === null) service.kill('SIGKILL');
    }
    const cohort = join(app, 'node_modules', '@cohort', 'cli', 'dist', 'main.js');
    const shown = ok(run(nodeOf(NODE_LINES[0]), [cohort, 'book', 'show', join('data', 'skillbook.json')], app));
    expect(shown.stdout).toContain('Issue: served over HTTP');
    expect(shown.stdout).not.toContain('an insight with no issue');
  });
});
