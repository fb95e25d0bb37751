import type { AppliedOp, Skillbook } from '@cohort/skillbook';
import { draftView } from '@cohort/runtime';
import type {
  ChargeResult,
  Limits,
  Session,
  SessionBatchResult,
  SessionBody,
  SessionCall,
  SessionId,
  SessionOutcome,
  SkillTools,
  SpawnOptions,
  Usage,
} from '@cohort/runtime';

/** What a durable session asks of the unit it runs in. */
export interface SessionUnit {
  /** The name `body` is registered under, or undefined. */
  nameOf(body: unknown): string | undefined;
  /** Spawns registered body `name` as a child unit of `parent`, as child `key`. */
  spawnRemote(parent: DurableSession<unknown>, name: string, key: string, options: SpawnOptions<unknown>): Promise<SessionOutcome>;
  /** The value recorded under `key` for step `name`, or what `run` gives, recorded first. */
  recordStep<T>(key: string, name: string, run: () => Promise<T>): Promise<T>;
  /** Session `key` made its `writes`-th own write (a tool's write or a batch). */
  wrote(key: string, writes: number): void;
  /** Session `key` made its `spawns`-th spawn (of any body). */
  spawning(key: string, spawns: number): void;
  /** Resolves when session `key`'s body may go on: no merge an earlier run made at this point of its writes is still to come. */
  settled(key: string): Promise<void>;
}

/**
 * The key under which `@cohort/ai` looks for a session's call recorder (a registered symbol,
 * so neither package depends on the other): a durable session's model calls are recorded steps.
 */
const CALL_RECORDER: unique symbol = Symbol.for('cohort.callRecorder');

/**
 * The session a body sees in a durable unit: the runtime's session, except that spawning a
 * registered body runs it as a child unit (on any worker) instead of in this process. Each
 * session has a key — its place in the unit's tree by spawn order (`0`, `0.1`, `0.1.3`) — that
 * names its children's units and records the same way on every run of the unit.
 */
export class DurableSession<I> implements Session<I> {
  private spawned = 0;
  private steps = 0;
  private writes = 0;
  private toolset: SkillTools | null = null;

  constructor(
    /** The runtime's session this one stands for. */
    readonly inner: Session<I>,
    private readonly unit: SessionUnit,
    /** The session's place in the unit's tree. */
    readonly key: string,
    /** The ops from the unit's view book to the book this session started on (its ancestors' drafts at each spawn). */
    private readonly prefix: readonly AppliedOp[],
    /** Which run of its spawn this session is, when the runtime's count does not say (a unit's root session: its spawn's attempt). */
    private readonly attemptOfSpawn?: number,
  ) {}

  /** The session's own writes so far (its tools' writes and its batches, applied or not): where its children's merges fall. */
  get ownWrites(): number {
    return this.writes;
  }

  /** The session's spawns so far (of any body): where its children's merges fall, with `ownWrites`. */
  get spawns(): number {
    return this.spawned;
  }

  /** The ops from the unit's view book to this session's draft now: what a child spawned now starts on. */
  viewOps(): readonly AppliedOp[] {
    const own = draftView(this.inner)?.ops ?? [];
    return own.length === 0 ? this.prefix : this.prefix.concat(own);
  }

  spawn<CI, CO>(body: SessionBody<CI, CO>, options: SpawnOptions<CI> = {}): Promise<SessionOutcome<CO>> {
    const key = `${this.key}.${++this.spawned}`;
    this.unit.spawning(this.key, this.spawned);
    const name = this.unit.nameOf(body);
    if (name !== undefined) {
      return this.delivered(this.unit.spawnRemote(this as DurableSession<unknown>, name, key, options) as Promise<SessionOutcome<CO>>);
    }
    // actor logic gets its session as input: it runs in process, without durable spawns of its own
    if (typeof body !== 'function') return this.delivered(this.inner.spawn(body, options));
    // the child's draft is made during the spawn, on this draft as it is now
    const prefix = this.viewOps();
    const run = body as (s: Session<CI>) => Promise<CO> | CO;
    return this.delivered(this.inner.spawn<CI, CO>((child) => run(new DurableSession(child, this.unit, key, prefix)), options));
  }

  /**
   * `value` for the body once the merges an earlier run made before this session's next own
   * write are done: a resumed body, given recorded outcomes at once, reaches its next write
   * where it did before, not ahead of them.
   */
  private delivered<T>(value: Promise<T>): Promise<T> {
    return value.then((v) => this.unit.settled(this.key).then(() => v));
  }

  private wrote(): void {
    this.unit.wrote(this.key, ++this.writes);
  }

  /**
   * Runs `run` as this session's next recorded step: a run of the unit after a crash gets the
   * recorded value instead of running it again. Keyed by the session's place, its attempt and
   * the step's number in it, so steps are matched to the same calls whatever other sessions do.
   */
  step<T>(name: string, run: () => Promise<T>): Promise<T> {
    return this.delivered(this.unit.recordStep(`step:${this.key}#${this.inner.attempt}:${this.steps++}`, name, run));
  }

  /** `@cohort/ai`'s model calls in this session, as recorded steps: a call that returned before a crash is not made again. */
  [CALL_RECORDER]<T>(name: string, run: () => Promise<T>): Promise<T> {
    return this.step(name, run);
  }

  get id(): SessionId {
    return this.inner.id;
  }

  get path(): readonly SessionId[] {
    return this.inner.path;
  }

  get depth(): number {
    return this.inner.depth;
  }

  get name(): string | undefined {
    return this.inner.name;
  }

  get input(): I {
    return this.inner.input;
  }

  get attempt(): number {
    return this.attemptOfSpawn ?? this.inner.attempt;
  }

  get limits(): Limits {
    return this.inner.limits;
  }

  get book(): Skillbook {
    return this.inner.book;
  }

  get signal(): AbortSignal {
    return this.inner.signal;
  }

  /** The runtime's tools, each write counted (see `ownWrites`) and each answer delivered as `delivered` does. */
  get tools(): SkillTools {
    if (this.toolset) return this.toolset;
    const tools = this.inner.tools;
    const write =
      <A, R>(call: (args: A) => Promise<R>) =>
      (args: A): Promise<R> => {
        const answer = call(args);
        this.wrote();
        return this.delivered(answer);
      };
    this.toolset = {
      add_skill: write(tools.add_skill),
      update_skill: write(tools.update_skill),
      remove_skill: write(tools.remove_skill),
      tag_skill: write(tools.tag_skill),
      read_skill: (args) => this.delivered(tools.read_skill(args)),
    };
    return this.toolset;
  }

  applyBatch(raw: unknown): SessionBatchResult {
    const result = this.inner.applyBatch(raw);
    this.wrote();
    return result;
  }

  abort(reason?: string): void {
    this.inner.abort(reason);
  }

  charge(usage: Usage): ChargeResult {
    return this.inner.charge(usage);
  }

  sleep(ms: number): Promise<void> {
    const slept = this.delivered(this.inner.sleep(ms));
    // already handled: a body that stopped listening must not cause an unhandled rejection
    slept.catch(() => undefined);
    return slept;
  }

  record(call: SessionCall): void {
    this.inner.record(call);
  }
}
