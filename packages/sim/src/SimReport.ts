import type { RuntimeEvent } from '@cohort/runtime';
import type { Scenario } from './Scenario.ts';
import type { ResolvedSimOptions } from './SimOptions.ts';

/** The invariants, by number and name (docs/simulation.md explains each). */
export const INVARIANTS = {
  1: 'serialisable',
  2: 'failed-work-discarded',
  3: 'audit-blocks',
  4: 'settles-once',
  5: 'unique-ids',
  6: 'no-unhandled-errors',
  7: 'crash-recovery',
  8: 'external-merge',
  9: 'ids-as-told',
  10: 'persisted-audit',
  11: 'durable-resume',
  12: 'recorded-once',
} as const;

/** An invariant's number. */
export type InvariantId = keyof typeof INVARIANTS;
/** An invariant's name. */
export type InvariantName = (typeof INVARIANTS)[InvariantId];

/** One invariant's verdict; `detail` says what was checked, or exactly what broke. */
export interface InvariantResult {
  readonly id: InvariantId;
  readonly name: InvariantName;
  readonly ok: boolean;
  readonly detail: readonly string[];
}

/** What the harness itself did, interleaved with the runtime's events. */
export type HarnessEvent =
  | { readonly type: 'sim.epoch'; readonly epoch: number; readonly store: string; readonly revision: number; readonly skills: number }
  | { readonly type: 'sim.crash'; readonly mode: 'power' | 'process'; readonly before: string }
  | { readonly type: 'sim.fault'; readonly fault: string }
  | { readonly type: 'sim.write'; readonly path: readonly string[]; readonly ops: readonly string[] }
  | { readonly type: 'sim.reopen'; readonly ok: boolean; readonly revision: number; readonly skills: number; readonly message?: string }
  /** Another program saved the document: what it changed, and whether it loaded it first or saved from memory. */
  | { readonly type: 'sim.external'; readonly mode: 'reload' | 'long-running'; readonly ops: readonly string[] }
  | { readonly type: 'sim.writers'; readonly runtimes: number; readonly store: string; readonly revision: number; readonly skills: number }
  /** A durable tree's run, its process's crash, its resume. */
  | { readonly type: 'sim.durable'; readonly what: 'reference run' | 'run' | 'crash' | 'resume'; readonly detail: string }
  | { readonly type: 'sim.unhandled'; readonly kind: 'rejection' | 'exception'; readonly message: string };

/** A timeline event: the runtime's (stack traces removed) or the harness's. */
export type TimelineEvent = RuntimeEvent | HarnessEvent;

/** One line of the timeline: virtual ms since the run began, and the epoch. */
export interface TimelineEntry {
  readonly t: number;
  readonly epoch: number;
  readonly event: TimelineEvent;
}

/** Counts for summaries. */
export interface SimStats {
  readonly epochs: number;
  readonly sessions: number;
  readonly merges: number;
  /** Failed sessions by failure kind. */
  readonly failures: Readonly<Record<string, number>>;
  readonly crashes: number;
  readonly appends: number;
  readonly acknowledged: number;
  /** Virtual ms the run took. */
  readonly virtualMs: number;
}

/**
 * The report of one simulated run: the seed and options, the scenario, the timeline, counts,
 * and each invariant's verdict. Same seed, same options, same code → the same bytes from
 * `JSON.stringify(report)`.
 */
export interface SimReport {
  readonly seed: number;
  readonly options: ResolvedSimOptions;
  readonly scenario: Scenario;
  readonly timeline: readonly TimelineEntry[];
  readonly stats: SimStats;
  readonly invariants: readonly InvariantResult[];
  readonly ok: boolean;
}

/**
 * A deep copy of an event without `stack` properties: stack traces name files and lines of
 * this machine, which a report must not depend on.
 */
export function withoutStacks<T>(value: T): T {
  if (Array.isArray(value)) return value.map((v: unknown) => withoutStacks(v)) as T;
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, unknown> = {};
  for (const [key, v] of Object.entries(value)) if (key !== 'stack') out[key] = withoutStacks(v);
  return out as T;
}
