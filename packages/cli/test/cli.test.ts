import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { createProgram } from '../src/createProgram.ts';
import { runCohort } from './utils/runCohort.ts';

const root = join(import.meta.dirname, '..', '..', '..');

/** Every command path of the program (`['book']`, `['book', 'show']`, …), read from the registrations. */
function commandPaths(): string[][] {
  const program = createProgram({ io: { out: { write: () => true }, err: { write: () => true } }, exit: () => {} });
  const walk = (c: Command, path: string[]): string[][] =>
    c.commands.filter((s) => s.name() !== 'help').flatMap((s) => [[...path, s.name()], ...walk(s, [...path, s.name()])]);
  return walk(program, []);
}

function leafOptions(): string[] {
  const program = createProgram({ io: { out: { write: () => true }, err: { write: () => true } }, exit: () => {} });
  const walk = (c: Command): string[] => [...c.options.map((o) => o.long ?? ''), ...c.commands.flatMap(walk)];
  return program.commands.flatMap(walk).filter((flag) => flag !== '--help');
}

describe('cohort', () => {
  it('--help - lists every command and every option of every command, and exits 0', async () => {
    const { code, out } = await runCohort(['--help']);
    expect(code).toBe(0);
    for (const path of commandPaths()) expect(out).toContain(`cohort ${path.join(' ')}`);
    for (const option of ['--limit <n>', '--store <kind>', '--seeds <A..B>', '--seed <n>', '--mutation <name>', '--trace', '--json'])
      expect(out).toContain(option);
    for (const flag of leafOptions()) expect(out).toContain(flag);
  });

  it("<command> --help - prints that command's usage and runs nothing, for every command", async () => {
    const paths = commandPaths();
    expect(paths).toEqual(expect.arrayContaining([['demo'], ['book'], ['book', 'show'], ['book', 'log'], ['sim']]));
    for (const path of paths) {
      const { code, out, err } = await runCohort([...path, '--help']);
      expect(code, path.join(' ')).toBe(0);
      expect(out, path.join(' ')).toContain(`Usage: cohort ${path.join(' ')}`);
      expect(err).toBe('');
    }
    expect((await runCohort(['demo', '--help'])).out).not.toContain('Session tree');
  });

  it('--version - prints the version of the package', async () => {
    const version = (JSON.parse(readFileSync(join(root, 'packages', 'cli', 'package.json'), 'utf8')) as { version: string }).version;
    const { code, out } = await runCohort(['--version']);
    expect(code).toBe(0);
    expect(out.trim()).toBe(version);
  });

  it('an unknown command or no command exits 2 with a pointer to the usage, on stderr', async () => {
    const unknown = await runCohort(['frobnicate']);
    expect(unknown.code).toBe(2);
    expect(unknown.err).toContain("unknown command 'frobnicate'");
    expect(unknown.err).toContain('cohort --help');
    expect(unknown.out).toBe('');
    const none = await runCohort([]);
    expect(none.code).toBe(2);
    expect(none.err).toContain('Usage: cohort');
  });

  it('cohort demo | head - a reader that goes away ends the demo quietly, with exit 0 and no EPIPE', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'packages/cli/src/main.ts', 'demo'], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let err = '';
    child.stderr.on('data', (chunk: Buffer) => void (err += chunk.toString()));
    // like `head -1`: read the first chunk, then close the pipe while the demo is still writing
    child.stdout.once('data', () => child.stdout.destroy());
    const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)));
    expect(err).not.toContain('EPIPE');
    expect(code).toBe(0);
  });
});
