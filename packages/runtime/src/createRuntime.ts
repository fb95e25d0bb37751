import { Observable, Subject } from 'rxjs';
import type { Subscription } from 'rxjs';
import { createActor } from 'xstate';
import type { Actor, InspectionEvent, Observer } from 'xstate';
import { Skillbook, createIdAllocator } from '@cohort/skillbook';
import { MemoryStore } from '@cohort/store';
import type { Store } from '@cohort/store';
import type { AuditEntry } from './AuditEntry.ts';
import { BudgetAccount } from './Budget.ts';
import type { BudgetSpec } from './Budget.ts';
import { systemClock } from './Clock.ts';
import type { Clock } from './Clock.ts';
import type { ConflictPolicy } from './ConflictPolicy.ts';
import { defaultLimits } from './Limits.ts';
import type { Limits } from './Limits.ts';
import type { RuntimeEvent } from './RuntimeEvent.ts';
import type { RuntimeMutation } from './RuntimeMutation.ts';
import type { SessionBody, SpawnOptions } from './Session.ts';
import type { SessionOutcome } from './SessionOutcome.ts';
import { supervisorMachine } from './supervisorMachine.ts';
import { SessionTree } from './internal/SessionTree.ts';
import { RootLedger } from './internal/RootLedger.ts';

/** Options of {@link createRuntime}. Every one has a default. */
export interface RuntimeOptions {
  /** The initial book when no store is given (default: empty). */
  readonly book?: Skillbook;
  /** Where the root book lives (default: a {@link MemoryStore}: no I/O). */
  readonly store?: Store;
  /** Time for every timer and timestamp (default: the real clock). */
  readonly clock?: Clock;
  readonly limits?: Partial<Limits>;
  /** The runtime-wide budget every root session carves from. */
  readonly budget?: BudgetSpec;
  /** How supervisors treat conflicting commits (default `reject`). */
  readonly conflicts?: ConflictPolicy;
  /** A deliberately broken variant, for mutation tests of the simulation only. */
  readonly mutation?: RuntimeMutation;
  /** xstate's inspector, passed through to the actor system. */
  readonly inspect?: Observer<InspectionEvent> | ((event: InspectionEvent) => void);
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
  /** Resolves once the store's book is loaded (every `run` waits for it too). */
  readonly ready: Promise<void>;
  /** The durable root book: changes when a root session's commit is durable. */
  readonly book: Skillbook;
  readonly revision: number;
  /** Every merged entry, in merge order; replaying it on the initial book gives `book`. */
  readonly audit: readonly AuditEntry[];
  readonly events$: Observable<RuntimeEvent>;
  /** Live sessions in the whole tree. */
  readonly liveSessions: number;
  /** Runs a root session; resolves with its outcome, never rejects. */
  run<I, O>(body: SessionBody<I, O>, options?: SpawnOptions<I>): Promise<SessionOutcome<O>>;
  /** Cancels live sessions, waits for in-flight merges to become durable, closes the store. */
  close(): Promise<void>;
}

/** Creates a runtime; see {@link Runtime}. No I/O unless given a store. */
export function createRuntime(options: RuntimeOptions = {}): Runtime {
  return new CohortRuntime(options);
}

class CohortRuntime implements Runtime {
  readonly ready: Promise<void>;
  private readonly events = new Subject<RuntimeEvent>();
  readonly events$ = this.events.asObservable();
  private readonly clock: Clock;
  private readonly store: Store;
  private readonly ledger: RootLedger;
  private readonly tree: SessionTree;
  private readonly rootActor: Actor<typeof supervisorMachine>;
  private readonly noticeSub: Subscription;
  private closed: Promise<void> | null = null;

  constructor(options: RuntimeOptions) {
    this.clock = options.clock ?? systemClock;
    const limits: Limits = { ...defaultLimits, ...options.limits };
    const initial = options.book ?? Skillbook.empty();
    this.store = options.store ?? new MemoryStore(initial);
    this.ledger = new RootLedger(initial, this.store, this.clock);
    this.tree = new SessionTree({
      clock: this.clock,
      limits,
      policy: options.conflicts ?? 'reject',
      budget: BudgetAccount.root(options.budget),
      emit: (e) => this.events.next(e),
      ledger: this.ledger,
      allocator: createIdAllocator(initial.nextId),
      mutation: options.mutation ?? null,
    });
    this.rootActor = createActor(this.tree.supervisorLogic, {
      clock: this.clock,
      ...(options.inspect ? { inspect: options.inspect } : {}),
      input: { ownerId: 'root', durable: true, maxQueue: limits.maxMergeQueue },
    });
    // xstate re-throws an unobserved root error in a timer: observe it, report it, never crash the host
    this.rootActor.subscribe({ error: (err) => this.tree.reportDefect(err) });
    this.rootActor.start();
    this.tree.setRootSupervisor(this.rootActor);
    this.noticeSub = this.store.notices$.subscribe((n) => this.events.next(n));
    this.ready = this.ledger.load().then((snapshot) => this.tree.resetAllocator(snapshot.book.nextId));
    // a failed load is reported to each `run` as a failure value; never an unhandled rejection
    this.ready.catch(() => undefined);
  }

  get book(): Skillbook {
    return this.ledger.book;
  }

  get revision(): number {
    return this.ledger.revision;
  }

  get audit(): readonly AuditEntry[] {
    return this.ledger.audit;
  }

  get liveSessions(): number {
    return this.tree.liveCount;
  }

  async run<I, O>(body: SessionBody<I, O>, options: SpawnOptions<I> = {}): Promise<SessionOutcome<O>> {
    try {
      await this.ready;
    } catch (err) {
      return this.tree.refuse(options, 'crashed', 'the store could not be loaded', err) as SessionOutcome<O>;
    }
    if (this.closed) return this.tree.refuse(options, 'cancelled', 'the runtime is closed') as SessionOutcome<O>;
    return this.tree.spawn(null, body as SessionBody<never, unknown>, options) as Promise<SessionOutcome<O>>;
  }

  close(): Promise<void> {
    this.closed ??= this.shutdown();
    return this.closed;
  }

  private async shutdown(): Promise<void> {
    await this.ready.catch(() => undefined);
    this.tree.cancelAll('runtime closed');
    this.rootActor.send({ type: 'CLOSE' });
    await this.ledger.drain();
    this.rootActor.stop();
    await this.store.close();
    this.noticeSub.unsubscribe();
    this.events.complete();
  }
}
