import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readReport } from './utils/readReport.ts';
import { runCohort } from './utils/runCohort.ts';

const dir = mkdtempSync(join(tmpdir(), 'cohort-cli-html-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('cohort demo --html, cohort sim --seed N --html', () => {
  it('demo --html - writes one report with a run per scenario: every session, the crash, the timeout and the conflict', async () => {
    const file = join(dir, 'reports', 'demo.html');
    const { code, out, err } = await runCohort(['demo', '--html', file]);
    expect(code).toBe(0);
    expect(out).toContain('Session tree');
    expect(err).toContain(`run report written to ${file}`);
    const recording = readReport(file);
    expect(recording.runs.map((r) => r.label)).toEqual([
      'A crashed session leaves nothing behind',
      'A session that runs out of time',
      'Two sessions change the same skill',
    ]);
    const failures = recording.runs.flatMap((r) => r.sessions.flatMap((s) => (s.failure ? [`${s.name}: ${s.failure.kind}`] : [])));
    expect(failures).toEqual(expect.arrayContaining(['B: crashed', 'researcher: timeout']));
    expect(failures.some((f) => f.endsWith(': conflict'))).toBe(true);
    // the inspection tap was attached: machine states are recorded, not only events
    expect(recording.runs[0]?.sessions.every((s) => s.states.length > 0)).toBe(true);
    expect(recording.runs[0]?.book?.added.length).toBeGreaterThan(0);
  });

  it('sim --seed N --html - writes the report of that seed: one run per epoch, every session of the simulation', async () => {
    const file = join(dir, 'sim.html');
    const json = await runCohort(['sim', '--seed', '21', '--json']);
    const report = JSON.parse(json.out) as { stats: { epochs: number; sessions: number } };
    const { code, err } = await runCohort(['sim', '--seed', '21', '--html', file]);
    expect(code).toBe(0);
    expect(err).toContain('run report written to');
    const recording = readReport(file);
    expect(recording.title).toBe('cohort sim, seed 21');
    expect(recording.runs).toHaveLength(report.stats.epochs);
    expect(recording.runs.flatMap((r) => r.sessions)).toHaveLength(report.stats.sessions);
  });

  it('sim --html without --seed - a usage error naming both flags, exit 2, nothing written', async () => {
    const file = join(dir, 'never.html');
    const { code, err } = await runCohort(['sim', '--seeds', '1..2', '--html', file]);
    expect(code).toBe(2);
    expect(err).toMatch(/--html <file>.*--seeds|--seeds.*--html <file>/);
    const alone = await runCohort(['sim', '--html', file]);
    expect(alone.code).toBe(2);
    expect(alone.err).toContain("option '--html <file>' needs '--seed <n>'");
    expect(() => readReport(file)).toThrow();
  });

  it('--html <file> that cannot be written - one line naming the file and why, exit 1', async () => {
    const blocker = join(dir, 'a-file');
    writeFileSync(blocker, 'not a directory');
    const { code, err } = await runCohort(['demo', '--html', join(blocker, 'demo.html')]);
    expect(code).toBe(1);
    expect(err).toContain(`cannot write the run report to ${join(blocker, 'demo.html')}:`);
    expect(err).not.toMatch(/\n\s+at /);
  });
});
