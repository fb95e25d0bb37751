import pkg from '@dbos-inc/dbos-sdk';
import internals from '@dbos-inc/dbos-sdk/internal/dbos';
import { z } from 'zod';
import type { Observable } from 'rxjs';
import type { PlacedEvent, SessionOutcome } from '@cohort/runtime';
import { Bodies } from './Bodies.ts';
import type { RegisteredBody } from './Bodies.ts';
import { DurableError } from './DurableError.ts';
import { DurableOptionsSchema, resolveOptions } from './DurableOptions.ts';
import type { DurableOptions, ResolvedDurableOptions } from './DurableOptions.ts';
import { RunOptionsSchema } from './Durable.ts';
import type { Durable, DurableRunOptions } from './Durable.ts';
import { jsonProblem } from './jsonProblem.ts';
import { concurrencyAt, maxDepthOf } from './QueueConcurrency.ts';
import { UnitResultSchema, UnitSpecSchema } from './UnitSpec.ts';
import type { UnitResult, UnitSpec } from './UnitSpec.ts';
import { BookAt } from './internal/BookAt.ts';
import { EventLog } from './internal/EventLog.ts';
import { Journal } from './internal/Journal.ts';
import { runRoot } from './internal/runRoot.ts';
import type { RootSpec } from './internal/runRoot.ts';
import { RunningUnits } from './internal/RunningUnits.ts';
import { cancelledUnit, failedRun, isCancellation } from './internal/runFailures.ts';
import { Takeover } from './internal/Takeover.ts';
import { runUnit } from './internal/UnitRun.ts';
import type { UnitHost } from './internal/UnitRun.ts';
import { checked, followRun } from './watchRun.ts';
import type { WatchOptions } from './watchRun.ts';

const { DBOS, DBOSClient } = pkg;
type DBOSClientType = Awaited<ReturnType<typeof DBOSClient.create>>;

/** The workflow names every worker registers. */
const ROOT_WORKFLOW = 'cohort.root';
const CHILD_WORKFLOW = 'cohort.child';

let open: DurableHost | null = null;

/**
 * Opens this process as a durable worker: registers the bodies and Cohort's two workflows
 * with DBOS Transact, launches it on the system database (resuming what this executor id left
 * unfinished) and serves the children's queue. One per process (DBOS is one per process).
 *
 * @example
 * const opened = await PostgresStore.open({ url: 'postgres://127.0.0.1:5432/app' });
 * if (!opened.ok) throw new Error('no store');
 * const durable = await openDurable({
 *   systemDatabaseUrl: 'postgres://127.0.0.1:5432/app_dbos',
 *   store: opened.store,
 *   bodies: { learn },
 *   executorId: 'worker-1',
 * });
 * const outcome = await durable.run('learn', { topic: 'retries' }, { id: 'learn-retries-1' });
 * await durable.close();
 */
export async function openDurable(options: DurableOptions): Promise<Durable> {
  const parsed = DurableOptionsSchema.safeParse(options);
  if (!parsed.success) throw new DurableError('DURABLE_INVALID_OPTIONS', z.prettifyError(parsed.error));
  if (open) {
    throw new DurableError('DURABLE_ALREADY_OPEN', 'a durable worker is open in this process (one DBOS per process): close it first');
  }
  const host = new DurableHost(resolveOptions(options));
  open = host;
  try {
    await host.start();
  } catch (err) {
    open = null;
    await host.stop().catch(() => undefined);
    throw err;
  }
  return host;
}

/** The worker: what its units share, and the DBOS wiring. */
class DurableHost implements Durable, UnitHost {
  readonly journal: Journal;
  readonly books: BookAt;
  readonly bodies: Bodies;
  readonly events: EventLog | undefined;
  readonly eventCalls: boolean;
  private client: DBOSClientType | null = null;
  private takeover: Takeover | null = null;
  private readonly running: RunningUnits;
  private readonly rootWorkflow: (spec: RootSpec) => Promise<SessionOutcome>;
  private readonly ready: Promise<void>;
  private markReady: () => void = () => undefined;
  private closed: Promise<void> | null = null;

  constructor(private readonly options: ResolvedDurableOptions) {
    this.journal = new Journal(options.systemDatabaseUrl);
    this.books = new BookAt(options.store);
    this.bodies = new Bodies(options.bodies);
    this.events = options.events === 'off' ? undefined : new EventLog(this.journal);
    this.eventCalls = options.events === 'all';
    this.running = new RunningUnits(async (ids) => {
      const statuses = await this.dbos().listWorkflows({ workflowIDs: [...ids], status: 'CANCELLED', loadInput: false, loadOutput: false });
      return statuses.map((w) => w.workflowID);
    }, options.heartbeatMs);
    this.ready = new Promise((resolve) => (this.markReady = resolve));
    DBOS.setConfig({
      name: options.appName,
      systemDatabaseUrl: options.systemDatabaseUrl,
      applicationVersion: options.applicationVersion,
      executorID: options.executorId,
      logLevel: options.logLevel,
      ...(options.systemDatabasePoolSize !== undefined ? { systemDatabasePoolSize: options.systemDatabasePoolSize } : {}),
    });
    // recovery on launch may start a workflow before the worker is ready: each waits for it
    this.rootWorkflow = DBOS.registerWorkflow(
      async (spec: RootSpec) => {
        await this.ready;
        return runRoot(this, spec);
      },
      { name: ROOT_WORKFLOW },
    );
    DBOS.registerWorkflow(
      async (raw: unknown) => {
        await this.ready;
        const spec = this.childSpec(raw);
        // a child enqueued as its run (or a unit above it) was being cancelled: it does not start
        if (await this.underCancelled(spec.unitId)) return cancelledUnit(spec);
        return runUnit(this, spec);
      },
      { name: CHILD_WORKFLOW },
    );
  }

  get store(): DurableOptions['store'] {
    return this.options.store;
  }

  get limits(): DurableOptions['limits'] {
    return this.options.limits;
  }

  get conflicts(): DurableOptions['conflicts'] {
    return this.options.conflicts;
  }

  get executorId(): string {
    return this.options.executorId;
  }

  track(unitId: string, stop: () => void): () => void {
    return this.running.track(unitId, stop);
  }

  private dbos(): DBOSClientType {
    if (!this.client) throw new Error('the durable worker is not ready');
    return this.client;
  }

  async start(): Promise<void> {
    await DBOS.launch();
    await this.journal.open();
    const { systemDatabaseUrl, appName, systemDatabasePoolSize } = this.options;
    this.client = await DBOSClient.create({
      systemDatabaseUrl,
      applicationName: appName,
      ...(systemDatabasePoolSize !== undefined ? { systemDatabasePoolSize } : {}),
    });
    for (let depth = 1; depth <= maxDepthOf(this.options); depth++) {
      const limits = concurrencyAt(this.options, depth);
      await DBOS.registerQueue(this.queueAt(depth), { ...limits, minPollingIntervalMs: this.options.pollingIntervalMs });
    }
    this.markReady();
    // another worker's units, once its heartbeat is older than takeoverAfterMs: DBOS's recovery of that executor
    const { executorId, applicationVersion, heartbeatMs, takeoverAfterMs } = this.options;
    this.takeover = new Takeover(this.journal, executorId, applicationVersion, { heartbeatMs, takeoverAfterMs }, (dead) =>
      internals.getExecutor().recoverPendingWorkflows([dead]),
    );
    await this.takeover.start();
    this.running.start();
  }

  async run<O>(body: string | RegisteredBody, input: unknown, options: DurableRunOptions): Promise<SessionOutcome<O>> {
    if (this.closed) throw new DurableError('DURABLE_CLOSED', 'this durable worker is closed');
    const parsed = RunOptionsSchema.safeParse(options);
    if (!parsed.success) throw new DurableError('DURABLE_INVALID_OPTIONS', `durable.run options: ${z.prettifyError(parsed.error)}`);
    const name = this.bodies.resolve(body);
    const problem = jsonProblem(input, 'input');
    if (problem) throw new DurableError('DURABLE_UNSERIALISABLE', `the input of run ${options.id} cannot be recorded: ${problem}`);
    await this.refuseOtherVersion(options.id);
    const spec: RootSpec = { runId: options.id, body: name, input, name: options.name, timeoutMs: options.timeoutMs };
    try {
      const handle = await DBOS.startWorkflow(this.rootWorkflow, { workflowID: options.id })(spec);
      return (await handle.getResult()) as SessionOutcome<O>;
    } catch (err) {
      // the time the workflow's end was recorded, when it can be read: the same outcome every time it is asked for
      const ended = await this.dbos()
        .getWorkflow(options.id)
        .then((w) => (w && !['PENDING', 'ENQUEUED'].includes(w.status) ? w.updatedAt : undefined))
        .catch(() => undefined);
      return failedRun(options.id, isCancellation(err) ? 'cancelled' : 'crashed', err, ended) as SessionOutcome<O>;
    }
  }

  /**
   * Throws `DURABLE_OTHER_VERSION` when run `id` is unfinished and was started by workers of
   * another application version: only those resume it (DBOS recovers and dequeues a workflow
   * on workers of its own version), so waiting for it here could wait forever.
   */
  private async refuseOtherVersion(id: string): Promise<void> {
    const found = await this.dbos().getWorkflow(id);
    const theirs = found?.applicationVersion;
    const mine = this.options.applicationVersion;
    if (!found || theirs === undefined || theirs === mine || !['PENDING', 'ENQUEUED'].includes(found.status)) return;
    const message = `run ${id} was started by application version ${theirs} and has not finished: only workers of version ${theirs} resume it (this worker is version ${mine}); keep a worker of ${theirs} running until its runs finish`;
    throw new DurableError('DURABLE_OTHER_VERSION', message);
  }

  async cancel(id: string): Promise<void> {
    if (this.closed) throw new DurableError('DURABLE_CLOSED', 'this durable worker is closed');
    const parsed = RunOptionsSchema.shape.id.safeParse(id);
    if (!parsed.success) throw new DurableError('DURABLE_INVALID_OPTIONS', `durable.cancel: ${z.prettifyError(parsed.error)}`);
    const client = this.dbos();
    if (!(await client.getWorkflow(id))) throw new DurableError('DURABLE_UNKNOWN_RUN', `no durable run has id ${JSON.stringify(id)}`);
    await this.cancelTree(id);
  }

  watch(id: string, options: WatchOptions = {}): Observable<PlacedEvent> {
    checked(id, options);
    return followRun(this.journal, id, { pollingIntervalMs: this.options.pollingIntervalMs, ...options });
  }

  /** Whether a unit above `unitId` (its parent's, …, its run's) is cancelled. */
  private async underCancelled(unitId: string): Promise<boolean> {
    const parts = unitId.split('/');
    const above = parts.slice(1).map((_, i) => parts.slice(0, i + 1).join('/'));
    const cancelled = await this.dbos().listWorkflows({ workflowIDs: above, status: 'CANCELLED', loadInput: false, loadOutput: false });
    return cancelled.length > 0;
  }

  /** Cancels unit `unitId` and the units under it; the ones running here stop now, elsewhere within `heartbeatMs`. */
  async cancelTree(unitId: string): Promise<void> {
    const client = this.dbos();
    // the unit first: a child enqueued after the sweep below sees its run cancelled and does not start
    await client.cancelWorkflow(unitId);
    const prefix = `${unitId}/`;
    const units = await client.listWorkflows({
      workflow_id_prefix: prefix,
      status: ['PENDING', 'ENQUEUED'],
      loadInput: false,
      loadOutput: false,
    });
    if (units.length > 0) await client.cancelWorkflows(units.map((u) => u.workflowID));
    await this.running.sweep();
  }

  /** Enqueues a child unit (idempotent by its id) and waits for its recorded result. */
  async runChild(spec: UnitSpec): Promise<UnitResult> {
    const client = this.dbos();
    const queueName = this.queueAt(spec.home ? spec.home.path.length - 1 : 1);
    const handle = await client.enqueue(
      { workflowName: CHILD_WORKFLOW, queueName, workflowID: spec.unitId, appVersion: this.options.applicationVersion },
      spec,
    );
    const raw: unknown = await handle.getResult({ pollingIntervalMs: this.options.pollingIntervalMs });
    const result = UnitResultSchema.safeParse(raw);
    if (!result.success) throw new Error(`child unit ${spec.unitId} recorded a result of another shape: ${z.prettifyError(result.error)}`);
    return result.data as UnitResult;
  }

  /**
   * The queue of the child units at `depth`. One queue per depth: a unit waiting for its
   * children holds a place of its queue's concurrency, so with one queue for all depths, units
   * waiting for children could take every place and leave none for the children they wait for.
   */
  private queueAt(depth: number): string {
    return `${this.options.queue}.${depth}`;
  }

  private childSpec(raw: unknown): UnitSpec {
    const spec = UnitSpecSchema.safeParse(raw);
    if (!spec.success) {
      throw new DurableError('DURABLE_INVALID_OPTIONS', `a child unit's input of another shape: ${z.prettifyError(spec.error)}`);
    }
    return spec.data as UnitSpec;
  }

  close(): Promise<void> {
    this.closed ??= this.stop();
    return this.closed;
  }

  async stop(): Promise<void> {
    await this.takeover?.stop();
    await this.running.stop();
    await DBOS.shutdown({ deregister: true });
    await this.client?.destroy();
    await this.journal.close();
    if (open === this) open = null;
  }
}
