import { describe, expect, it } from 'vitest';
import { runSim } from '../src/commands/sim.ts';
import { runCli } from '../src/runCli.ts';

async function run(args: string[], isTTY = false): Promise<{ code: number; text: string }> {
  let text = '';
  const code = await runSim(args, { write: (s: string) => void (text += s), isTTY });
  return { code, text };
}

describe('cohort sim', () => {
  it('sim --seeds - prints an aligned summary of runs, sessions, merges, failures by kind, violations and time; exits 0', async () => {
    const { code, text } = await run(['--seeds', '1..12']);
    expect(code).toBe(0);
    expect(text).toContain('cohort sim — seeds 1..12');
    for (const row of ['runs', 'sessions', 'merges', 'failures', 'invariant violations', 'time']) expect(text).toMatch(new RegExp(`^  ${row} +`, 'm'));
    expect(text).toMatch(/^ {2}runs +12$/m);
    expect(text).toMatch(/^ {4}crashed +\d+$/m);
    expect(text).toMatch(/^ {2}invariant violations +0$/m);
  });

  it('sim --seeds - exits 1 on a violation and prints the exact command that replays the failing seed', async () => {
    const { code, text } = await run(['--seeds', '1..6', '--mutation', 'ack-before-sync']);
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

  it('sim --seed N --trace - prints that run\'s timeline, one readable line per event, then each invariant', async () => {
    const { code, text } = await run(['--seed', '17', '--trace']);
    expect(code).toBe(0);
    expect(text).toMatch(/^seed 17$/m);
    expect(text).toMatch(/^epoch 1$/m);
    expect(text).toMatch(/^ +\+\d+ ms {2}s1 +spawned "e1r1"$/m);
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
    expect(report.invariants).toHaveLength(7);
    expect(report.timeline.length).toBeGreaterThan(0);
    expect((await run(['--seed', '3', '--json'])).text).toBe(one.text);
  });

  it('sim - shows a progress bar on a terminal, and none otherwise', async () => {
    const tty = (await run(['--seeds', '1..3'], true)).text;
    expect(tty).toMatch(/\r\[#{10}\.{20}\] 1\/3 seeds/);
    expect(tty).toMatch(/\r\[#{30}\] 3\/3 seeds/);
    expect(tty).toContain('\r\x1b[2K');
    expect((await run(['--seeds', '1..3'], false)).text).not.toContain('\r');
  });

  it('sim - bad arguments exit 2 with the usage', async () => {
    for (const args of [['--seeds', '5..1'], ['--seeds', 'many'], ['--seed', 'x'], ['--mutation', 'nope'], ['--frobnicate']]) {
      const { code, text } = await run(args);
      expect(code, args.join(' ')).toBe(2);
      expect(text).toContain('usage: cohort sim');
    }
  });

  it('sim - is registered as a cohort command', async () => {
    let text = '';
    const code = await runCli(['sim', '--seed', '2'], { write: (s) => void (text += s) });
    expect(code).toBe(0);
    expect(text).toContain('cohort sim — seed 2');
  });
});
