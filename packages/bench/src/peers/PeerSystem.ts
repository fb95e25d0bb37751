/**
 * A system of the peer comparison: runs a {@link Workload} once, in this process, and says
 * how long it took and which inserts survived (for {@link verify}).
 */
import type { Workload } from './Workload.ts';

/** One run of a workload by one system. */
export interface PeerRun {
  /** Wall time of the workload alone (setup before the clock started is excluded), in ms. */
  readonly ms: number;
  /** Every insert the parent holds at the end (read after the clock stopped). */
  readonly kept: Iterable<{ readonly issue: string }>;
}

/** The systems compared, in table order. */
export const PEER_KEYS = ['cohort', 'langgraph', 'effect', 'floor'] as const;
export type PeerKey = (typeof PEER_KEYS)[number];

/** A system: its name as the table prints it, and how it runs a workload. */
export interface PeerSystem {
  readonly key: PeerKey;
  /** With the exact version the bench pins: `LangGraph.js 1.7.3`. */
  readonly name: string;
  run(w: Workload): Promise<PeerRun>;
}
