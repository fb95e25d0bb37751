import type { Observable } from 'rxjs';
import type { InspectionEvent, Observer } from 'xstate';
import type { Skillbook } from '@cohort/skillbook';
import type { HistoryOptions, HistoryPage, Store } from '@cohort/store';
import type { AuditEntry } from './AuditEntry.ts';
import type { BudgetSpec } from './Budget.ts';
import type { Clock } from './Clock.ts';
import type { ConflictPolicy } from './ConflictPolicy.ts';
import type { Limits } from './Limits.ts';
import type { RuntimeEvent } from './RuntimeEvent.ts';
import type { SessionBody, SpawnOptions } from './Session.ts';
import type { SessionOutcome } from './SessionOutcome.ts';
import { openRuntime } from './internal/CohortRuntime.ts';
import { faithfulSeams } from './internal/Seams.ts';

/** Options of {@link createRuntime}. Every one has a default. */
export interface RuntimeOptions {
  /** The initial book when no store is given (default: empty). */
  readonly book?: Skillbook;
  /** Where the root book lives (default: a {@link MemoryStore}: no I/O). A loaded store's book is the runtime's from the start. */
  readonly store?: Store;
  /** Names the runtime in its session ids, `<runtimeId>.<n>` (default: 10 random characters); 1–64 of `A–Z a–z 0–9 _ -`. */
  readonly runtimeId?: string;
  /** How many recent entries `audit` keeps (default 1,000; `Infinity`: all). The whole history is the store's: `history()`. */
  readonly auditWindow?: number;
  /** Time for every timer and timestamp (default: the real clock). */
  readonly clock?: Clock;
  readonly limits?: Partial<Limits>;
  /** The runtime-wide budget every root session carves from. */
  readonly budget?: BudgetSpec;
  /** How supervisors treat conflicting commits (default `reject`). */
  readonly conflicts?: ConflictPolicy;
  /** xstate's inspector, passed through to the actor system. */
  readonly inspect?: Observer<InspectionEvent> | ((event: InspectionEvent) => void);
  /**
   * OpenTelemetry spans for sessions, tool calls and merges (default `true`: when
   * `@opentelemetry/api` is installed and a tracer provider is registered; see
   * docs/observability.md). `false` turns them off.
   */
  readonly tracing?: boolean;
}

/**
 * A Cohort runtime: the root of a tree of isolated sessions sharing one Skillbook.
 *
 * @example
 * const rt = createRuntime();
 * const outcome = await rt.run(async (s) => {
 *   await s.tools.add_skill({ section: 'harness', issue: 'flaky network', insight: 'retry twice' });
 *   return 'done';
 * });
 * outcome.status; // 'committed'
 * rt.book.size;   // 1
 * await rt.close();
 */
export interface Runtime {
  /**
   * Resolves once the runtime caught up with its store and holds its first id lease (every
   * `run` waits for it too). `book` and `revision` are right before it when the store was
   * loaded already; a store that loads asynchronously shows its book once it resolves.
   */
  readonly ready: Promise<void>;
  /** The runtime's id: the prefix of its session ids. */
  readonly runtimeId: string;
  /** The durable root book: changes when a root session's commit is durable. */
  readonly book: Skillbook;
  readonly revision: number;
  /**
   * The newest entries this runtime merged (at most `auditWindow`), in merge order. With the
   * whole window, replaying it on the initial book gives `book`; the durable history of every
   * writer of the store is {@link Runtime.history}.
   */
  readonly audit: readonly AuditEntry[];
  /** Typed events; the notices the store raised while opening come first, to every subscriber. */
  readonly events$: Observable<RuntimeEvent>;
  /** Live sessions in the whole tree. */
  readonly liveSessions: number;
  /**
   * A page of the store's persisted history (every writer's root commits, one block per session,
   * and what the store took in from other programs), in revision order; also after a reopen.
   */
  history(options?: HistoryOptions): Promise<HistoryPage>;
  /** Runs a root session; resolves with its outcome, never rejects. */
  run<I, O>(body: SessionBody<I, O>, options?: SpawnOptions<I>): Promise<SessionOutcome<O>>;
  /** Cancels live sessions, waits for in-flight merges to become durable, closes the store. */
  close(): Promise<void>;
}

/**
 * Creates a runtime; see {@link Runtime}. No I/O unless given a store. Options its schema
 * refuses (a negative limit, say) throw with code `RUNTIME_INVALID_OPTIONS`.
 */
export function createRuntime(options: RuntimeOptions = {}): Runtime {
  return openRuntime(options, faithfulSeams);
}
