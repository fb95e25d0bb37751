import pkg from '@dbos-inc/dbos-sdk';
import internals from '@dbos-inc/dbos-sdk/internal/dbos';
import { z } from 'zod';
import type { SessionFailure, SessionOutcome } from '@cohort/runtime';
import { defaultLimits, toErrorInfo } from '@cohort/runtime';
import { Bodies } from './Bodies.ts';
import type { RegisteredBody } from './Bodies.ts';
import { DurableError } from './DurableError.ts';
import { DurableOptionsSchema, resolveOptions } from './DurableOptions.ts';
import type { DurableOptions, ResolvedDurableOptions } from './DurableOptions.ts';
import { jsonProblem } from './jsonProblem.ts';
import { UnitResultSchema, UnitSpecSchema } from './UnitSpec.ts';
import type { UnitResult, UnitSpec } from './UnitSpec.ts';
import { BookAt } from './internal/BookAt.ts';
import { Journal } from './internal/Journal.ts';
import { runRoot } from './internal/runRoot.ts';
import type { RootSpec } from './internal/runRoot.ts';
import { Takeover } from './internal/Takeover.ts';
import { runUnit } from './internal/UnitRun.ts';
import type { UnitHost } from './internal/UnitRun.ts';

const { DBOS, DBOSClient } = pkg;
type DBOSClientType = Awaited<ReturnType<typeof DBOSClient.create>>;

/** The workflow names every worker registers. */
const ROOT_WORKFLOW = 'cohort.root';
const CHILD_WORKFLOW = 'cohort.child';

/** Options of one durable run. */
export interface DurableRunOptions {
  /** The run's id: a second run with this id, from any worker, returns the first one's outcome (1–200 characters, no `/`). */
  readonly id: string;
  readonly name?: string;
  /** Fails the root session with kind `timeout` after this many milliseconds. */
  readonly timeoutMs?: number;
}

const RunOptionsSchema = z.object({
  id: z.string().regex(/^[^/]{1,200}$/, '1 to 200 characters, no /'),
  name: z.string().optional(),
  timeoutMs: z.number().int().positive().optional(),
});

/**
 * One worker process of a durable Cohort application; see {@link openDurable}.
 */
export interface Durable {
  /** This worker's DBOS executor id (start it again with the same one to resume its unfinished work). */
  readonly executorId: string;
  /**
   * Runs registered body `body` (by name, or the registered function itself) as a durable root
   * session; resolves with its outcome as `rt.run` gives it, never rejects for what happens in
   * the tree. Idempotent by `id`: a second call with the same id, from any worker, returns the
   * first run's outcome and runs nothing. Throws a {@link DurableError} for a body that is not
   * registered, an input that cannot be recorded, or bad options.
   */
  run<O = unknown>(body: string | RegisteredBody, input: unknown, options: DurableRunOptions): Promise<SessionOutcome<O>>;
  /** Stops this worker: what it was running is left to a worker started again with its executor id. */
  close(): Promise<void>;
}

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
  private client: DBOSClientType | null = null;
  private takeover: Takeover | null = null;
  private readonly rootWorkflow: (spec: RootSpec) => Promise<SessionOutcome>;
  private readonly ready: Promise<void>;
  private markReady: () => void = () => undefined;
  private closed: Promise<void> | null = null;

  constructor(private readonly options: ResolvedDurableOptions) {
    this.journal = new Journal(options.systemDatabaseUrl);
    this.books = new BookAt(options.store);
    this.bodies = new Bodies(options.bodies);
    this.ready = new Promise((resolve) => (this.markReady = resolve));
    DBOS.setConfig({
      name: options.appName,
      systemDatabaseUrl: options.systemDatabaseUrl,
      applicationVersion: options.applicationVersion,
      executorID: options.executorId,
      logLevel: options.logLevel,
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
        return runUnit(this, this.childSpec(raw));
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

  async start(): Promise<void> {
    await DBOS.launch();
    await this.journal.open();
    this.client = await DBOSClient.create({ systemDatabaseUrl: this.options.systemDatabaseUrl, applicationName: this.options.appName });
    const { workerConcurrency, pollingIntervalMs } = this.options;
    for (let depth = 1; depth <= this.maxDepth; depth++) {
      await DBOS.registerQueue(this.queueAt(depth), { workerConcurrency, minPollingIntervalMs: pollingIntervalMs });
    }
    this.markReady();
    // another worker's units, once its heartbeat is older than takeoverAfterMs: DBOS's recovery of that executor
    const { executorId, applicationVersion, heartbeatMs, takeoverAfterMs } = this.options;
    this.takeover = new Takeover(this.journal, executorId, applicationVersion, { heartbeatMs, takeoverAfterMs }, (dead) =>
      internals.getExecutor().recoverPendingWorkflows([dead]),
    );
    await this.takeover.start();
  }

  async run<O>(body: string | RegisteredBody, input: unknown, options: DurableRunOptions): Promise<SessionOutcome<O>> {
    if (this.closed) throw new DurableError('DURABLE_CLOSED', 'this durable worker is closed');
    const parsed = RunOptionsSchema.safeParse(options);
    if (!parsed.success) throw new DurableError('DURABLE_INVALID_OPTIONS', `durable.run options: ${z.prettifyError(parsed.error)}`);
    const name = this.bodies.resolve(body);
    const problem = jsonProblem(input, 'input');
    if (problem) throw new DurableError('DURABLE_UNSERIALISABLE', `the input of run ${options.id} cannot be recorded: ${problem}`);
    const spec: RootSpec = { runId: options.id, body: name, input, name: options.name, timeoutMs: options.timeoutMs };
    try {
      const handle = await DBOS.startWorkflow(this.rootWorkflow, { workflowID: options.id })(spec);
      return (await handle.getResult()) as SessionOutcome<O>;
    } catch (err) {
      return crashedRun(options.id, err) as SessionOutcome<O>;
    }
  }

  /** Enqueues a child unit (idempotent by its id) and waits for its recorded result. */
  async runChild(spec: UnitSpec): Promise<UnitResult> {
    const client = this.client;
    if (!client) throw new Error('the durable worker is not ready');
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

  /** How deep a tree may reach (the runtime's `maxDepth`): one queue per depth. */
  private get maxDepth(): number {
    return this.options.limits?.maxDepth ?? defaultLimits.maxDepth;
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
    await DBOS.shutdown({ deregister: true });
    await this.client?.destroy();
    await this.journal.close();
    if (open === this) open = null;
  }
}

/** The outcome of a run whose workflow itself failed (a defect, or the system database gone). */
function crashedRun(id: string, err: unknown): SessionOutcome {
  const sessionId = `run:${id}` as SessionFailure['sessionId'];
  const failure: SessionFailure = {
    kind: 'crashed',
    category: 'defect',
    sessionId,
    path: [sessionId],
    message: `durable run ${id} failed: ${err instanceof Error ? err.message : String(err)}`,
    error: toErrorInfo(err),
    discarded: { ops: 0, descendants: 0 },
    attempt: 1,
    at: Date.now(),
  };
  return { status: 'failed', sessionId, path: failure.path, failure };
}
