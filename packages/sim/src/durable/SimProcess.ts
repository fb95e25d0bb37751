import type { Clock, ConflictPolicy, SessionBody, SessionOutcome } from '@cohort/runtime';
import { Bodies, BookAt, runRoot, runUnit } from '@cohort/durable/internal';
import type { Records, RegisteredBody, UnitHost, UnitResult, UnitSpec } from '@cohort/durable/internal';
import type { Store } from '@cohort/store';
import { DelegatingStore } from '@cohort/store/adapter';
import type { AppendResult, CommitRecord, HistoryOptions, HistoryPage, LeaseResult, StoreSnapshot } from '@cohort/store';
import type { EpochRecord } from '../EpochRecord.ts';
import { scriptBody } from '../scriptBody.ts';
import type { ScriptEnv, ScriptOutput } from '../scriptBody.ts';
import type { DurableCrash, DurablePlan } from './DurablePlan.ts';
import { plansOf } from './DurablePlan.ts';

/** What outlives a process: the records of the run's units, and the Skillbook store. */
export interface DurableWorld {
  /** Records by unit, then key: what a journal in a database would hold. */
  readonly rows: Map<string, Map<string, unknown>>;
  readonly store: Store;
  /** Every start of a unit, in order, with the process that started it. */
  readonly starts: { readonly unitId: string; readonly process: number }[];
  /** Appends of a root commit the store took. */
  appended: number;
}

/** How a process of the simulation deviates from the engine's contract (a broken variant, to show the checker fails). */
export type ProcessMutation = 'rerun-recorded-children' | 'forget-merge-order' | null;

/** Thrown at everything durable a crashed process still tries: it is gone. */
const GONE = 'the process crashed';

/** The run's id (its root unit's). */
export const DURABLE_RUN_ID = 'durable-1';

/**
 * One process running a durable tree, in the engine's place (DBOS on a worker): a child unit
 * runs here, its outcome recorded under its id, and a child whose outcome is recorded is not
 * run again — its record is its result. `crash()` ends it: from then on every record, read and
 * store call it makes fails, and its unit runtimes are closed; only what it recorded and
 * appended before stays, in the world.
 */
export class SimProcess {
  readonly host: UnitHost;
  crashed: string | null = null;
  /** The units whose outcome was recorded when the process crashed. */
  recordedAtCrash: string[] = [];
  /** The records as they were when the process crashed (null: it did not). */
  rowsAtCrash: Map<string, Map<string, unknown>> | null = null;
  private readonly stops = new Set<() => void>();
  private readonly crashAt: DurableCrash | null;
  private readonly onCrash: (where: string) => void;
  private readonly mutation: ProcessMutation;
  private records = 0;
  private results = 0;

  constructor(
    readonly world: DurableWorld,
    readonly index: number,
    how: {
      readonly plan: DurablePlan;
      readonly crash: DurableCrash | null;
      readonly clock: Clock;
      readonly record: EpochRecord;
      readonly seedIds: readonly string[];
      readonly conflicts: ConflictPolicy;
      readonly mutation: ProcessMutation;
      readonly onCrash: (where: string) => void;
    },
  ) {
    this.crashAt = how.crash;
    this.onCrash = how.onCrash;
    this.mutation = how.mutation;
    // each plan's body is registered once per process, by the plan's name: the same code on every process
    const registered = new Map<string, SessionBody<unknown, ScriptOutput>>();
    const env: ScriptEnv = {
      record: how.record,
      clock: how.clock,
      seedIds: how.seedIds,
      bodyOf: (plan) => {
        // every session of a durable tree is a registered body (registered just below)
        const body = registered.get(plan.name);
        if (!body) throw new Error(`the durable tree's session ${plan.name} is not registered`);
        return body;
      },
    };
    for (const plan of plansOf(how.plan.root)) registered.set(plan.name, scriptBody(plan, env));
    const store = new ProcessStore(world.store, this);
    this.host = {
      journal: this.journal(),
      store,
      books: new BookAt(store),
      bodies: new Bodies(Object.fromEntries(registered) as Record<string, RegisteredBody>),
      limits: undefined,
      conflicts: how.conflicts,
      clock: how.clock,
      runChild: (spec) => this.runChild(spec),
      track: (_unitId, stop) => {
        this.stops.add(stop);
        return () => this.stops.delete(stop);
      },
    };
  }

  /** Runs (or resumes) the tree's root, as a worker's root workflow does; never rejects. */
  run(root: string): Promise<SessionOutcome | null> {
    this.world.starts.push({ unitId: DURABLE_RUN_ID, process: this.index });
    return runRoot(this.host, { runId: DURABLE_RUN_ID, body: root, input: null, name: root }).catch(() => null);
  }

  /** The process dies: nothing it does from now on is recorded or reaches the store. */
  crash(where: string): void {
    if (this.crashed !== null) return;
    this.crashed = where;
    this.recordedAtCrash = this.recordedUnits();
    this.rowsAtCrash = new Map([...this.world.rows].map(([unit, rows]) => [unit, new Map(rows)]));
    this.onCrash(where);
    for (const stop of this.stops) stop();
  }

  /** The units whose outcome is recorded in the world now. */
  recordedUnits(): string[] {
    return [...this.world.rows].filter(([, rows]) => rows.has('result')).map(([unit]) => unit);
  }

  /** Fails when the process is gone. */
  alive(): void {
    if (this.crashed !== null) throw new Error(GONE);
  }

  /** Before and after a root commit's append: the crash points there. */
  appending(when: 'before' | 'after'): void {
    if (this.crashAt?.at === 'append' && this.crashAt.when === when) this.crash(`${when} the root's append`);
    this.alive();
  }

  /** The engine's part: a child unit whose outcome is recorded is that outcome; one that is not runs, and its outcome is recorded. */
  private async runChild(spec: UnitSpec): Promise<UnitResult> {
    const found = await this.host.journal.get(spec.unitId, 'result');
    if (found !== undefined && this.mutation !== 'rerun-recorded-children') return found as UnitResult;
    this.alive();
    this.world.starts.push({ unitId: spec.unitId, process: this.index });
    const result = await runUnit(this.host, spec);
    return (await this.host.journal.record(spec.unitId, 'result', result)) as UnitResult;
  }

  private rows(unit: string): Map<string, unknown> {
    let rows = this.world.rows.get(unit);
    if (!rows) this.world.rows.set(unit, (rows = new Map()));
    return rows;
  }

  /** The records as this process reaches them (each value a copy: it went through a database). */
  private journal(): Records {
    const get = async (unit: string, key: string): Promise<unknown> => {
      this.alive();
      return structuredClone(this.rows(unit).get(key));
    };
    const record = async (unit: string, key: string, value: unknown): Promise<unknown> => {
      this.alive();
      const rows = this.rows(unit);
      if (!rows.has(key)) {
        rows.set(key, structuredClone(value));
        this.records += 1;
        if (key === 'result') this.results += 1;
        this.afterRecord();
      }
      return get(unit, key);
    };
    return {
      get,
      record,
      recorded: async <T>(unit: string, key: string, make: () => Promise<T>): Promise<T> => {
        const found = await get(unit, key);
        return (found !== undefined ? found : await record(unit, key, await make())) as T;
      },
      list: async (unit, prefix) => {
        this.alive();
        // the broken variant: a resumed session does not read the order its children were merged in
        if (this.mutation === 'forget-merge-order' && prefix === 'order:') return [];
        return [...this.rows(unit)]
          .filter(([key]) => key.startsWith(prefix))
          .map(([key, value]) => ({ key, value: structuredClone(value) }));
      },
    };
  }

  private afterRecord(): void {
    const at = this.crashAt;
    if (at?.at === 'record' && this.records === at.after) this.crash(`after record ${at.after}`);
    if (at?.at === 'child-result' && this.results === at.after) this.crash(`after child outcome ${at.after}`);
  }
}

/** The store as a process reaches it: gone with the process; a root commit's append counted, with its crash points. */
class ProcessStore extends DelegatingStore {
  constructor(
    inner: Store,
    private readonly process: SimProcess,
  ) {
    super(inner);
  }

  override async load(): Promise<StoreSnapshot> {
    this.process.alive();
    return super.load();
  }

  override async leaseIds(count: number): Promise<LeaseResult> {
    this.process.alive();
    return super.leaseIds(count);
  }

  override async history(options?: HistoryOptions): Promise<HistoryPage> {
    this.process.alive();
    return super.history(options);
  }

  override async append(commit: CommitRecord): Promise<AppendResult> {
    this.process.appending('before');
    const result = await super.append(commit);
    if (result.ok) this.process.world.appended += 1;
    this.process.appending('after');
    return result;
  }
}
