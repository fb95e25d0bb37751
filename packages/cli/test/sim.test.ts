import { describe, expect, it } from 'vitest';
import { runCohort } from './utils/runCohort.ts';

/** `cohort sim <args>`; `text` is stdout, `err` stderr. */
async function run(args: string[], tty = false): Promise<{ code: number; text: string; err: string }> {
  const r = await runCohort(['sim', ...args], { tty });
  return { code: r.code, text: r.out, err: r.err };
}

describe('cohort sim', () => {
  it('sim --seeds - prints an aligned summary of runs, sessions, merges, failures by kind, violations and time; exits 0', async () => {
    const { code, text } = await run(['--seeds', '1..12']);
    expect(code).toBe(0);
    expect(text).toContain('cohort sim — seeds 1..12');
    for (const row of ['runs', 'sessions', 'merges', 'failures', 'invariant violations', 'time'])
      expect(text).toMatch(new RegExp(`^  ${row} +`, 'm'));
    expect(text).toMatch(/^ {2}runs +12$/m);
    expect(text).toMatch(/^ {4}crashed +\d+$/m);
    expect(text).toMatch(/^ {2}invariant violations +0$/m);
  });

  it('sim --seeds - exits 1 on a violation and prints the exact command that replays the failing seed', async () => {
    const { code, text } = await run(['--seeds', '1..24', '--mutation', 'ack-before-sync']);
    expect(code).toBe(1);
    expect(text).toMatch(/^ {4}crash-recovery +\d+$/m);
    expect(text).toMatch(/seed \d+: crash-recovery — /);
    const replay = /\.\/pnpmw cohort sim --seed (\d+) --trace --mutation ack-before-sync/.exec(text);
    expect(replay).not.toBeNull();
    // the command replays it: the same seed fails the same way
    const again = await run(['--seed', replay?.[1] ?? '', '--trace', '--mutation', 'ack-before-sync']);
    expect(again.code).toBe(1);
    expect(again.text).toContain('FAIL (7) crash-recovery');
  });

  it("sim --seed N --trace - prints that run's timeline, one readable line per event, then each invariant", async () => {
    const { code, text } = await run(['--seed', '17', '--trace']);
    expect(code).toBe(0);
    expect(text).toMatch(/^seed 17$/m);
    expect(text).toMatch(/^epoch 1$/m);
    expect(text).toMatch(/^ +\+\d+ ms {2}e1\.1 +spawned "e1r1"$/m);
    expect(text).toMatch(/merged into the book at revision \d+/);
    expect(text).toMatch(/^ {2}ok {3}\(1\) serialisable$/m);
    expect(text).toMatch(/^ {2}ok {3}\(7\) crash-recovery$/m);
  });

  it('sim --json - prints a machine-readable summary, or the whole report for one seed', async () => {
    const many = await run(['--seeds', '1..4', '--json']);
    expect(many.code).toBe(0);
    const summary = JSON.parse(many.text) as Record<string, unknown>;
    expect(summary).toMatchObject({ seeds: { from: 1, to: 4 }, runs: 4, violations: [], ok: true });
    const one = await run(['--seed', '3', '--json']);
    const report = JSON.parse(one.text) as { seed: number; invariants: unknown[]; timeline: unknown[] };
    expect(report.seed).toBe(3);
    expect(report.invariants).toHaveLength(12);
    expect(report.timeline.length).toBeGreaterThan(0);
    expect((await run(['--seed', '3', '--json'])).text).toBe(one.text);
  });

  it('sim - shows a progress bar on a terminal (stderr), and none otherwise', async () => {
    const tty = await run(['--seeds', '1..3'], true);
    expect(tty.err).toMatch(/\[#{30}\] 3\/3 seeds/);
    expect(tty.err).toContain('\x1b[2K');
    expect(tty.text).not.toContain('\x1b');
    const piped = await run(['--seeds', '1..3'], false);
    expect(piped.err).toBe('');
    expect(piped.text).not.toContain('\r');
  });

  it('sim - bad arguments exit 2, name the flag the user typed and point to the usage', async () => {
    const cases: [string[], string][] = [
      [['--seed', '-3'], "option '--seed <n>' argument '-3' is invalid. expected a whole number, at least 0"],
      [['--seeds', '5..1'], "option '--seeds <A..B>' argument '5..1' is invalid. the range is empty"],
      [['--seeds', 'many'], "option '--seeds <A..B>' argument 'many' is invalid"],
      [['--seed', 'x'], "option '--seed <n>' argument 'x' is invalid"],
      [['--mutation', 'nope'], "option '--mutation <name>' argument 'nope' is invalid"],
      [['--seed', '1', '--seeds', '1..2'], "option '--seed <n>' cannot be used with option '--seeds <A..B>'"],
      [['--frobnicate'], "unknown option '--frobnicate'"],
    ];
    for (const [args, message] of cases) {
      const { code, err } = await run(args);
      expect(code, args.join(' ')).toBe(2);
      expect(err).toContain(message);
      expect(err).toContain('`cohort sim --help` prints its usage');
      expect(err).not.toMatch(/\b(from|to)\b:/);
    }
  });

  it('sim --seed N - runs one seed through the cohort command line', async () => {
    const { code, text } = await run(['--seed', '2']);
    expect(code).toBe(0);
    expect(text).toContain('cohort sim — seed 2');
  });
});
