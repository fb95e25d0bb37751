import { Skillbook } from '@cohort/skillbook';
import type { Store } from '../../Store.ts';
import { addOp, makeCommit } from '../commitFixtures.ts';

/** One adapter under test: how to open it (again). */
export interface StoreHarness {
  /** Opens the store; a durable adapter opens the same data again after `close`. */
  open(): Promise<Store>;
  /** Whether a reopened store holds what a closed one acknowledged. */
  readonly durable: boolean;
  /** Removes whatever the harness created. */
  cleanup?(): Promise<void>;
}

/** Creates a fresh harness whose store starts from `initial`. */
export type StoreFactory = (initial: Skillbook) => Promise<StoreHarness>;

/** What every group of conformance cases gets: a store opened for the test (closed and cleaned up after it). */
export interface ConformanceContext {
  readonly factory: StoreFactory;
  start(initial?: Skillbook): Promise<{ harness: StoreHarness; store: Store }>;
}

/** The book most cases start from: three skills (context-00001, context-00002, harness-00003). */
export function seeded(): Skillbook {
  return makeCommit(Skillbook.empty(), [addOp('seed one'), addOp('seed two'), addOp('seed three', 'harness')]).book;
}

/** Throws unless `r` is ok; its value otherwise. */
export function ok<T extends { readonly ok: boolean }>(r: T, what = 'the store'): Extract<T, { ok: true }> {
  if (!r.ok) throw new Error(`${what} refused: ${JSON.stringify((r as { error?: unknown }).error)}`);
  return r as Extract<T, { ok: true }>;
}
