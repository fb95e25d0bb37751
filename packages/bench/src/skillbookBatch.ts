/**
 * Skillbook batch cost: the time of one 10-op batch (4 ADD, 3 UPDATE, 2 TAG, 1 REMOVE) on
 * books of different sizes. The design requires O(k) per batch, so the 100,000-skill figure
 * must stay within 3× of the 1,000-skill one.
 *
 * Run on its own: `./pnpmw exec tsx packages/bench/src/skillbookBatchMain.ts`
 */
import type { Skillbook } from '@cohort/skillbook';
import { buildBook, fixedClock, randomId } from './books.ts';
import { random } from './measure.ts';

/** The cost of a batch on a book of `size` skills. */
export interface SkillbookBatchCost {
  readonly size: number;
  readonly opsPerBatch: number;
  readonly reps: number;
  /** Median wall time of one `applyBatch`, in milliseconds. */
  readonly medianMs: number;
  /** 90th percentile, in milliseconds. */
  readonly p90Ms: number;
}

/** Options for {@link measureSkillbookBatch}. */
export interface SkillbookBatchOptions {
  /** Book sizes to measure. Default `[1_000, 100_000]`. */
  readonly sizes?: readonly number[];
  /** The books to measure, when the caller has built them already (`buildBook`); `sizes` is then not used. */
  readonly books?: readonly Skillbook[];
  /** Batches run before measuring, per size. Default 300. */
  readonly warmup?: number;
  /** Batches measured, per size. Default 2,000. */
  readonly reps?: number;
  /** Seed for the choice of target skills. Default 1. */
  readonly seed?: number;
}

/** A mixed 10-op batch against random existing skills of `book`. */
export function mixedBatch(book: Skillbook, rand: () => number): { operations: object[] } {
  const target = (): string => randomId(book.nextId, rand);
  return {
    operations: [
      { type: 'ADD', section: 'context', issue: 'new issue a', insight: 'new insight', keywords: ['bench'] },
      { type: 'ADD', section: 'harness', issue: 'new issue b', insight: 'new insight' },
      { type: 'ADD', section: 'Legacy notes', issue: 'new issue c' },
      {
        type: 'ADD',
        section: 'context',
        issue: 'new issue d',
        insight: 'new insight',
        insight_source: { source_system: 'bench', trace_id: 't1' },
      },
      { type: 'UPDATE', skill_id: target(), insight: `updated ${rand()}` },
      { type: 'UPDATE', skill_id: target(), issue: 'updated issue', keywords: ['updated'] },
      { type: 'UPDATE', skill_id: target(), insight_source: { source_system: 'bench', trace_id: 't2' } },
      { type: 'TAG', skill_id: target(), metadata: { delta: 1 } },
      { type: 'TAG', skill_id: target(), metadata: { delta: -1 } },
      { type: 'REMOVE', skill_id: target(), reason: 'bench' },
    ],
  };
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? NaN;
}

/** Times `count` batches on `book`, appending each `applyBatch` wall time (ms) to `times`. */
function timeBatches(book: Skillbook, rand: () => number, count: number, times: number[] | null): void {
  for (let i = 0; i < count; i++) {
    const batch = mixedBatch(book, rand);
    const t0 = performance.now();
    const result = book.applyBatch(batch, { clock: fixedClock });
    const t1 = performance.now();
    if (!result.ok || result.applied.length !== 10) throw new Error(`bench batch did not apply: ${JSON.stringify(result)}`);
    times?.push(t1 - t0);
  }
}

/**
 * Measures the cost of a 10-op batch on books of each size (default 1,000 and 100,000): builds
 * the books (unless given), warms every one up, then measures in 10 interleaved rounds (so JIT warm-up and
 * machine drift weigh on every size alike) and reports the median and 90th percentile.
 *
 * @example
 * const [small, large] = measureSkillbookBatch();
 * large.medianMs / small.medianMs; // ≤ 3 is the requirement
 */
export function measureSkillbookBatch(options: SkillbookBatchOptions = {}): SkillbookBatchCost[] {
  const sizes = options.sizes ?? [1_000, 100_000];
  const reps = options.reps ?? 2_000;
  const rounds = 10;
  const rand = random(options.seed ?? 1);
  const books = options.books ?? sizes.map((size) => buildBook(size));
  const times = books.map((): number[] => []);
  for (const book of books) timeBatches(book, rand, options.warmup ?? 300, null);
  for (let round = 0; round < rounds; round++) {
    books.forEach((book, i) => timeBatches(book, rand, Math.ceil(reps / rounds), times[i] ?? null));
  }
  return books.map((book, i) => {
    const sorted = (times[i] ?? []).sort((a, b) => a - b);
    return { size: book.size, opsPerBatch: 10, reps: sorted.length, medianMs: percentile(sorted, 0.5), p90Ms: percentile(sorted, 0.9) };
  });
}
