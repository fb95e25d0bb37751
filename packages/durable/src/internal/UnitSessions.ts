import type { Session, SessionFailure, SessionOutcome, SpawnOptions, RuntimeEvent } from '@cohort/runtime';
import { adoptCommit, draftView, traceCarrier } from '@cohort/runtime';
import { DurableError } from '../DurableError.ts';
import { jsonProblem } from '../jsonProblem.ts';
import type { UnitSpec } from '../UnitSpec.ts';
import type { DurableSession, SessionUnit } from './DurableSession.ts';
import type { MergeOrder } from './MergeOrder.ts';
import type { UnitPlacement } from './UnitPlacement.ts';
import type { UnitHost } from './UnitRun.ts';

/**
 * The remote spawns of one unit's sessions: each registered body spawned is a child unit, with
 * a proxy session in this tree that waits for the child's recorded result, takes its turn in
 * its parent's merge order, and adopts the child's commit into its draft — so the commit
 * reaches the parent through the runtime's own merge, conflict check and audit, as an in-process
 * child's does.
 */
export class UnitSessions implements SessionUnit {
  /** The proxy sessions waiting for their child units, by id: the session they merge into, their key. */
  private readonly proxies = new Map<string, { readonly parent: DurableSession<unknown>; readonly key: string }>();

  constructor(
    private readonly host: UnitHost,
    private readonly spec: UnitSpec,
    private readonly order: MergeOrder,
    private readonly placement: UnitPlacement,
  ) {}

  nameOf(body: unknown): string | undefined {
    return this.host.bodies.nameOf(body);
  }

  wrote(key: string, writes: number): void {
    this.order.wrote(key, writes);
  }

  settled(key: string): Promise<void> {
    return this.order.settled(key);
  }

  /** A merge of a proxy's commit into its parent was decided: its place among the parent's own writes is recorded. */
  observed(event: RuntimeEvent): void {
    if (event.type !== 'session.merged' && event.type !== 'session.rejected') return;
    const proxy = this.proxies.get(event.sessionId);
    if (proxy) this.order.merged(proxy.parent.key, proxy.key, proxy.parent.ownWrites);
  }

  async recordStep<T>(key: string, name: string, run: () => Promise<T>): Promise<T> {
    const found = (await this.host.journal.get(this.spec.unitId, key)) as { name: string; value: T } | undefined;
    if (found !== undefined) {
      if (found.name !== name)
        throw new Error(`step ${key} was recorded as ${found.name}, not ${name}: the body does not run the same steps`);
      return found.value;
    }
    const value = await run();
    const problem = jsonProblem(value, 'value');
    if (problem) throw new DurableError('DURABLE_UNSERIALISABLE', `the value of step ${name} cannot be recorded: ${problem}`);
    const stands = (await this.host.journal.record(this.spec.unitId, key, { name, value: value ?? null })) as { value: T };
    return stands.value;
  }

  /** A path in this unit's runtime as a path in the run's tree (the unit's root session is its home). */
  private pathInTree(path: readonly string[]): string[] {
    const home = this.spec.home;
    return home ? home.path.concat(path.slice(1)) : [...path];
  }

  async spawnRemote(parent: DurableSession<unknown>, name: string, key: string, options: SpawnOptions<unknown>): Promise<SessionOutcome> {
    const refusal = remoteRefusal(name, options);
    const view = { baseRevision: this.spec.view.baseRevision, ops: this.spec.view.ops.concat(parent.viewOps()) };
    let remoteFailure: SessionFailure | null = null;
    this.order.spawned(parent.key, key, parent.ownWrites);
    const proxy = async (p: Session): Promise<unknown> => {
      this.placement.proxy(p.id);
      if (refusal) throw refusal;
      this.proxies.set(p.id, { parent, key });
      // a child unit starts on a view that may hold earlier merges: their places are recorded first
      await this.order.recorded();
      const start = draftView(p)?.revision ?? 0;
      const unitId = `${this.spec.unitId}/${key}${p.attempt > 1 ? `#${p.attempt}` : ''}`;
      const trace = traceCarrier();
      // the proxy ended first (its parent's timeout, a cancellation): so does the child, wherever it runs
      let arrived = false;
      p.signal.addEventListener('abort', () => {
        if (!arrived) void this.host.cancelTree?.(unitId).catch(() => undefined);
      });
      const result = await this.host.runChild({
        unitId,
        body: name,
        input: options.input,
        view,
        home: { sessionId: p.id, path: this.pathInTree(p.path) },
        ...(options.name !== undefined ? { name: options.name } : {}),
        ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
        ...(trace ? { trace } : {}),
      });
      arrived = true;
      await this.order.turn(parent.key, key);
      if (result.status === 'failed') {
        remoteFailure = result.failure;
        this.placement.proxyFailed(p.id, result.failure);
        p.abort(`child unit ${unitId} failed: ${result.failure.message}`);
        return undefined;
      }
      const adopted = adoptCommit(p, { baseRevision: start, entries: result.entries, descendants: result.descendants });
      if (!adopted.ok) throw new Error(`the commit of child unit ${unitId} could not be taken in: ${adopted.message}`);
      return result.output;
    };
    this.placement.expectProxy(parent.inner.id);
    const outcome = await parent.inner.spawn(proxy, options.name !== undefined ? { name: options.name } : {});
    this.order.done(parent.key, key);
    this.proxies.delete(outcome.sessionId);
    const failure: SessionFailure | null = remoteFailure;
    if (failure && outcome.status === 'failed') return { status: 'failed', sessionId: outcome.sessionId, path: outcome.path, failure };
    return outcome;
  }
}

/** Why a spawn of a registered body is refused before it runs, or null. */
function remoteRefusal(name: string, options: SpawnOptions<unknown>): DurableError | null {
  const problem = jsonProblem(options.input, 'input');
  if (problem) return new DurableError('DURABLE_UNSERIALISABLE', `the input of a spawn of body ${name} cannot be recorded: ${problem}`);
  if (options.budget || options.retry) {
    const message = `a spawn of registered body ${name} takes no budget or retry yet (a durable child runs in its own unit)`;
    return new DurableError('DURABLE_INVALID_OPTIONS', message);
  }
  return null;
}
