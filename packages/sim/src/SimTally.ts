import type { InvariantName, SimReport } from './SimReport.ts';

/** One seed that broke an invariant. */
export interface SimViolation {
  readonly seed: number;
  readonly invariants: readonly InvariantName[];
  /** The first violation's first line. */
  readonly detail: string;
}

/** Totals over many runs. */
export interface SimSummary {
  readonly runs: number;
  readonly sessions: number;
  readonly merges: number;
  readonly crashes: number;
  /** Failed sessions by kind, kinds sorted by name. */
  readonly failures: Readonly<Record<string, number>>;
  /** Violations per invariant name (only the broken ones). */
  readonly violationsByInvariant: Readonly<Partial<Record<InvariantName, number>>>;
  readonly violations: readonly SimViolation[];
}

/**
 * Adds up the reports of many runs (without keeping them): runs, sessions, merges, process
 * crashes, failures by kind, and every seed that broke an invariant.
 *
 * @example
 * const tally = new SimTally();
 * for (let seed = 1; seed <= 10; seed++) tally.add(await simulate({ seed }));
 * tally.summary().violations.length; // 0
 */
export class SimTally {
  private runs = 0;
  private sessions = 0;
  private merges = 0;
  private crashes = 0;
  private readonly failures = new Map<string, number>();
  private readonly byInvariant = new Map<InvariantName, number>();
  private readonly violations: SimViolation[] = [];

  /** Counts one report. */
  add(report: SimReport): void {
    this.runs += 1;
    this.sessions += report.stats.sessions;
    this.merges += report.stats.merges;
    this.crashes += report.stats.crashes;
    for (const [kind, n] of Object.entries(report.stats.failures)) this.failures.set(kind, (this.failures.get(kind) ?? 0) + n);
    const broken = report.invariants.filter((i) => !i.ok);
    if (broken.length === 0) return;
    for (const b of broken) this.byInvariant.set(b.name, (this.byInvariant.get(b.name) ?? 0) + 1);
    this.violations.push({ seed: report.seed, invariants: broken.map((b) => b.name), detail: broken[0]?.detail[0] ?? '' });
  }

  /** The totals so far. */
  summary(): SimSummary {
    const failures: Record<string, number> = {};
    for (const kind of [...this.failures.keys()].sort()) failures[kind] = this.failures.get(kind) ?? 0;
    return {
      runs: this.runs,
      sessions: this.sessions,
      merges: this.merges,
      crashes: this.crashes,
      failures,
      violationsByInvariant: Object.fromEntries(this.byInvariant),
      violations: [...this.violations],
    };
  }
}
