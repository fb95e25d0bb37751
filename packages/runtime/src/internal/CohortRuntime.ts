import { Subject, concat, defer, from } from 'rxjs';
import type { Observable, Subscription } from 'rxjs';
import { z } from 'zod';
import { Skillbook } from '@cohort/skillbook';
import { MemoryStore } from '@cohort/store';
import type { HistoryOptions, HistoryPage, Store } from '@cohort/store';
import type { AuditEntry } from '../AuditEntry.ts';
import { BudgetAccount, BudgetSpecSchema } from '../Budget.ts';
import { systemClock } from '../Clock.ts';
import type { Clock } from '../Clock.ts';
import type { Runtime, RuntimeOptions } from '../createRuntime.ts';
import { die } from '../errors.ts';
import { failureSeed } from '../FailureSeed.ts';
import { LimitsSchema, defaultLimits } from '../Limits.ts';
import type { Limits } from '../Limits.ts';
import type { RuntimeEvent } from '../RuntimeEvent.ts';
import type { SessionBody, SpawnOptions } from '../Session.ts';
import type { SessionOutcome } from '../SessionOutcome.ts';
import { RuntimeIdSchema, newRuntimeId } from '../SessionId.ts';
import { RootLedger } from './RootLedger.ts';
import type { Seams } from './Seams.ts';
import { SessionTree } from './SessionTree.ts';
import { tracingFor } from './tracing/tracingFor.ts';
import { SkillIds } from './SkillIds.ts';

/** How many recent entries `rt.audit` keeps by default. */
export const DEFAULT_AUDIT_WINDOW = 1_000;

/** The parts of {@link RuntimeOptions} that are data, checked where they enter. */
const RuntimeOptionsSchema = z.object({
  limits: LimitsSchema.partial().optional(),
  budget: BudgetSpecSchema.optional(),
  conflicts: z.union([z.enum(['reject', 'rebase', 'last-writer-wins']), z.function()]).optional(),
  runtimeId: RuntimeIdSchema.optional(),
  auditWindow: z.union([z.number().int().positive(), z.literal(Number.POSITIVE_INFINITY)]).optional(),
  tracing: z.boolean().optional(),
});

/**
 * Opens a runtime on `seams` (the faithful ones for {@link createRuntime}; a broken variant
 * for the simulation's mutation tests). Bad options are a programmer error, thrown with code
 * `RUNTIME_INVALID_OPTIONS`.
 */
export function openRuntime(options: RuntimeOptions, seams: Seams): Runtime {
  const parsed = RuntimeOptionsSchema.safeParse(options);
  if (!parsed.success) die('RUNTIME_INVALID_OPTIONS', z.prettifyError(parsed.error));
  return new CohortRuntime(options, seams);
}

class CohortRuntime implements Runtime {
  readonly ready: Promise<void>;
  readonly runtimeId: string;
  private readonly events = new Subject<RuntimeEvent>();
  /** The notices the store raised while opening first (replayed to every subscriber, as the store does), then live events. */
  readonly events$: Observable<RuntimeEvent> = defer(() => {
    const opened = this.store.openNotices;
    return opened.length === 0 ? this.events : concat(from(opened), this.events);
  });
  private readonly store: Store;
  private readonly ledger: RootLedger;
  private readonly tree: SessionTree;
  private readonly noticeSub: Subscription;
  private externalSub: Subscription | undefined;
  private closed: Promise<void> | null = null;

  constructor(options: RuntimeOptions, seams: Seams) {
    const clock: Clock = options.clock ?? systemClock;
    const limits: Limits = { ...defaultLimits, ...options.limits };
    // a store that is loaded (a FileStore after `open`) gives its book at once: no empty window
    const initial = options.store ? (options.store.current()?.book ?? Skillbook.empty()) : (options.book ?? Skillbook.empty());
    this.store = options.store ?? new MemoryStore(initial);
    this.runtimeId = options.runtimeId ?? newRuntimeId();
    const ids = seams.ids(this.store, initial);
    const auditWindow = options.auditWindow ?? DEFAULT_AUDIT_WINDOW;
    this.ledger = new RootLedger(initial, { store: this.store, clock, auditWindow, ids, persistedBlocks: seams.persistedBlocks });
    const skillIds = new SkillIds(ids.source);
    const events = this.events;
    this.tree = new SessionTree({
      clock,
      limits,
      policy: options.conflicts ?? 'reject',
      budget: BudgetAccount.root(options.budget),
      events: {
        get listening() {
          return events.observed;
        },
        emit: (e) => events.next(e),
      },
      ledger: this.ledger,
      skillIds,
      runtimeId: this.runtimeId,
      seams,
      inspect: options.inspect,
      tracing: tracingFor(options.tracing),
    });
    this.noticeSub = this.store.notices$.subscribe((n) => this.events.next(n));
    // catching up with the store and the first id lease, side by side; a refused lease is no
    // failure of `ready` (an ADD asks again, and says why when it cannot be had)
    this.ready = Promise.all([this.ledger.load(), skillIds.start()]).then(() => {
      // other runtimes' merges (another process on the same database): the root moves on to them
      this.externalSub = this.store.external$?.subscribe((external) => this.ledger.takeIn(external));
    });
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

  history(options?: HistoryOptions): Promise<HistoryPage> {
    return this.store.history(options);
  }

  async run<I, O>(body: SessionBody<I, O>, options: SpawnOptions<I> = {}): Promise<SessionOutcome<O>> {
    try {
      await this.ready;
    } catch (err) {
      return this.tree.refuse(options, failureSeed('crashed', 'the store could not be loaded', { error: err })) as SessionOutcome<O>;
    }
    if (this.closed) return this.tree.refuse(options, failureSeed('cancelled', 'the runtime is closed')) as SessionOutcome<O>;
    return this.tree.spawn(null, body as SessionBody<never, unknown>, options) as Promise<SessionOutcome<O>>;
  }

  close(): Promise<void> {
    this.closed ??= this.shutdown();
    return this.closed;
  }

  private async shutdown(): Promise<void> {
    await this.ready.catch(() => undefined);
    this.tree.cancelAll('runtime closed');
    await this.tree.closeRoot();
    await this.ledger.drain();
    this.tree.root.stop();
    this.externalSub?.unsubscribe();
    await this.store.close();
    this.noticeSub.unsubscribe();
    this.events.complete();
  }
}
