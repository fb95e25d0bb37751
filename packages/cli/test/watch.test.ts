import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { parseRecording } from '@cohort/report';
import type { RunRecord } from '@cohort/report';
import { describe, expect, it } from 'vitest';
import { runCohort } from './utils/runCohort.ts';

const root = join(import.meta.dirname, '..', '..', '..');

/** `cohort watch <args>` as a process of its own (it waits for signals), with what it printed so far. */
function watch(args: readonly string[]): { child: ChildProcessWithoutNullStreams; output: () => string } {
  const child = spawn(process.execPath, ['--import', 'tsx', 'packages/cli/src/main.ts', 'watch', ...args], { cwd: root });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => void (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => void (output += chunk.toString()));
  return { child, output: () => output };
}

async function until<T>(probe: () => Promise<T | null> | T | null, what: () => string, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== null) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function liveRun(url: string): Promise<RunRecord | null> {
  const parsed = parseRecording(await (await fetch(new URL('recording.json', url))).text());
  return parsed.ok ? (parsed.recording.runs[0] ?? null) : null;
}

describe('cohort watch', () => {
  it('serves the live view of its sample workload on 127.0.0.1 while it runs, keeps serving after it, and stops cleanly on SIGINT', async () => {
    const { child, output } = watch(['--port', '0', '--workers', '8', '--pace', '250']); // a run of about 2 s: seen while it runs, even on a loaded machine
    try {
      const url = await until(() => /live view: (http:\/\/127\.0\.0\.1:\d+\/)/.exec(output())?.[1] ?? null, output);
      const page = await fetch(url);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<title>cohort watch</title>');
      // while it runs: some sessions are seen before the planner has settled
      const early = await until(async () => {
        const run = await liveRun(url);
        return run && run.sessions.length > 1 ? run : null;
      }, output);
      expect(early.sessions.find((s) => s.name === 'planner')?.status).not.toMatch(/committed|failed/);
      await until(() => (/the planner committed/.test(output()) ? true : null), output);
      const run = await liveRun(url);
      const byName = new Map(run?.sessions.map((s) => [s.name, s]));
      expect(byName.get('worker 5')?.failure?.kind).toBe('crashed');
      expect(byName.get('worker 6')?.failure?.kind).toBe('timeout');
      expect(byName.get('worker 4')?.failure?.kind).toBe('conflict');
      expect(byName.get('worker 3')?.status).toBe('committed');
      expect(byName.get('helper of worker 3')?.status).toBe('committed');
      expect(output()).toContain(`${run?.sessions.length} sessions`);
      // still serving after the run, until interrupted
      expect((await fetch(url)).status).toBe(200);
      child.kill('SIGINT');
      const [code] = (await once(child, 'exit')) as [number | null];
      expect(code).toBe(0);
      await expect(fetch(url)).rejects.toThrow();
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  });

  it('stopped through a launcher that dies on SIGTERM without passing it on (npx) - exits within a second, leaving no process', async () => {
    // npx runs the bin under `sh -c`; on SIGTERM npm and the shell die and the bin is left to init
    const launcher = spawn(
      process.execPath,
      [
        '-e',
        `
      const { spawn } = require('node:child_process');
      const c = spawn(process.execPath, ['--import', 'tsx', 'packages/cli/src/main.ts', 'watch', '--pace', '250'], { stdio: ['ignore', 'inherit', 'inherit'] });
      process.stdout.write('watch pid ' + c.pid + '\\n');
      setInterval(() => {}, 1000);`,
      ],
      { cwd: root },
    );
    let output = '';
    launcher.stdout.on('data', (chunk: Buffer) => void (output += chunk.toString()));
    const pid = Number(
      await until(
        () => /watch pid (\d+)/.exec(output)?.[1] ?? null,
        () => output,
      ),
    );
    // a process that has exited stays a zombie until its new parent reaps it, which init may do late
    const alive = (): boolean => {
      try {
        process.kill(pid, 0);
      } catch {
        return false;
      }
      try {
        return !/^\S+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, 'utf8'));
      } catch {
        return true;
      }
    };
    try {
      await until(
        () => (/live view: /.test(output) ? true : null),
        () => output,
      );
      launcher.kill('SIGKILL');
      const gone = Date.now();
      await until(
        () => (alive() ? null : true),
        () => `watch (pid ${pid}) to exit after its launcher died`,
        5_000,
      );
      expect(Date.now() - gone).toBeLessThan(1_500);
    } finally {
      if (alive()) process.kill(pid, 'SIGKILL');
      launcher.kill('SIGKILL');
    }
  });

  it('--exit-when-done - stops serving and exits 0 once the workload has ended', async () => {
    const { code, out } = await runCohort(['watch', '--workers', '3', '--pace', '5', '--exit-when-done']);
    expect(code).toBe(0);
    expect(out).toMatch(/^live view: http:\/\/127\.0\.0\.1:\d+\/ \(open it in a browser\)$/m);
    expect(out).toMatch(/^the planner committed: 6 sessions, 6 committed, 0 failed; the book holds 5 skills$/m);
  });

  it('--runs - runs the workload again and again, each run a runtime of its own, and says how each ended', async () => {
    const { code, out } = await runCohort(['watch', '--workers', '3', '--pace', '5', '--runs', '2', '--exit-when-done']);
    expect(code).toBe(0);
    expect(out).toMatch(/^run 1: the planner committed: 6 sessions, 6 committed, 0 failed; the book holds 5 skills$/m);
    expect(out).toMatch(/^run 2: the planner committed: 6 sessions, 6 committed, 0 failed; the book holds 5 skills$/m);
  });

  it('a port in use - one line naming the port, exit 1; bad values are usage errors', async () => {
    const taken = createServer().listen(0, '127.0.0.1');
    await once(taken, 'listening');
    const { port } = taken.address() as AddressInfo;
    try {
      const r = await runCohort(['watch', '--port', String(port), '--exit-when-done']);
      expect(r.code).toBe(1);
      expect(r.err).toContain(`127.0.0.1:${port}`);
      expect(r.err).toContain('EADDRINUSE');
    } finally {
      taken.close();
    }
    for (const bad of [
      ['--port', '70000'],
      ['--workers', '0'],
      ['--pace', 'fast'],
      ['--runs', '0'],
    ]) {
      const r = await runCohort(['watch', ...bad]);
      expect(r.code, bad.join(' ')).toBe(2);
      expect(r.err).toContain(bad[0]);
    }
  });
});
