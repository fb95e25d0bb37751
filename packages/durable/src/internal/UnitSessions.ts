import type { BudgetSpec, RuntimeEvent, Session, SessionFailure, SessionOutcome, SpawnOptions } from '@cohort/runtime';
import { adoptCommit, draftView, failSession, traceCarrier } from '@cohort/runtime';
import { DurableError } from '../DurableError.ts';
import { jsonProblem } from '../jsonProblem.ts';
import type { UnitResult, UnitSpec } from '../UnitSpec.ts';
import type { DurableSession, SessionUnit } from './DurableSession.ts';
import type { MergeOrder } from './MergeOrder.ts';
import type { UnitPlacement } from './UnitPlacement.ts';
import type { UnitHost } from './UnitRun.ts';

/**
 * The remote spawns of one unit's sessions: each registered body spawned is a child unit, with
 * a proxy session in this tree that waits for the child's recorded result, takes its turn in
 * its parent's merge order, charges what the child spent and adopts the child's commit into its
 * draft — so the commit reaches the parent through the runtime's own merge, conflict check and
 * audit, as an in-process child's does.
 *
 * The proxy is spawned with the spawn's `budget` (tokens and requests carved in this tree, by
 * the runtime) and its `retry` rule: a child unit that fails ends its proxy with the child's
 * failure (`failSession`), so the runtime's retry decides on the child's own kind. Each attempt
 * is a unit of its own (`<parent>/<key>#<attempt>` from the second on), recorded like any unit:
 * a parent resumed after a crash gets every recorded attempt's result again, in order, and runs
 * only the attempts no worker recorded.
 */
export class UnitSessions implements SessionUnit {
  /** The proxy sessions waiting for their child units, by id: the session they merge into, their turn's key. */
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

  spawning(key: string, spawns: number): void {
    this.order.spawning(key, spawns);
  }

  settled(key: string): Promise<void> {
    return this.order.settled(key);
  }

  /** A merge of a proxy's commit into its parent was decided: its place among the parent's own writes and spawns is recorded. */
  observed(event: RuntimeEvent): void {
    if (event.type !== 'session.merged' && event.type !== 'session.rejected') return;
    const proxy = this.proxies.get(event.sessionId);
    if (proxy) this.order.merged(proxy.parent.key, proxy.key, { writes: proxy.parent.ownWrites, spawns: proxy.parent.spawns });
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
    // the first attempt starts on its parent's draft at the spawn; a retry on the draft as it is then
    const firstView = parent.viewOps();
    const remoteFailures = new Map<string, SessionFailure>();
    const attempts: string[] = [];
    this.order.spawned(parent.key, key, parent.ownWrites);
    const proxy = async (p: Session): Promise<unknown> => {
      this.placement.proxy(p.id);
      if (refusal) throw refusal;
      const turn = p.attempt === 1 ? key : `${key}#${p.attempt}`;
      this.proxies.set(p.id, { parent, key: turn });
      attempts.push(p.id);
      // a child unit starts on a view that may hold earlier merges: their places are recorded first
      await this.order.recorded();
      const ops = p.attempt === 1 ? firstView : parent.viewOps();
      const start = draftView(p)?.revision ?? 0;
      const unitId = `${this.spec.unitId}/${key}${p.attempt > 1 ? `#${p.attempt}` : ''}`;
      const trace = traceCarrier();
      // the proxy ended first (its parent's timeout, a cancellation): so does the child, wherever it runs
      let arrived = false;
      p.signal.addEventListener('abort', () => {
        if (!arrived) void this.host.cancelTree?.(unitId).catch(() => undefined);
      });
      const budget = carriedBudget(p, options.budget);
      const result = await this.host.runChild({
        unitId,
        body: name,
        input: options.input,
        view: { baseRevision: this.spec.view.baseRevision, ops: this.spec.view.ops.concat(ops) },
        home: { sessionId: p.id, path: this.pathInTree(p.path) },
        ...(options.name !== undefined ? { name: options.name } : {}),
        ...(options.timeoutMs ? { timeoutMs: options.timeoutMs } : {}),
        ...(p.attempt > 1 ? { attempt: p.attempt } : {}),
        ...(budget ? { budget } : {}),
        ...(trace ? { trace } : {}),
      });
      arrived = true;
      await this.order.turn(parent.key, turn);
      // the next in line merges once this attempt has settled: merged into its parent, or failed
      if (p.signal.aborted) this.order.done(parent.key, turn);
      else p.signal.addEventListener('abort', () => this.order.done(parent.key, turn), { once: true });
      // charged in merge order, so a resumed run refuses the same charges; a refusal ends the proxy (budget_exhausted)
      if (result.usage && !p.charge(result.usage).ok) return undefined;
      if (result.status === 'failed') {
        remoteFailures.set(p.id, result.failure);
        this.placement.proxyFailed(p.id, result.failure);
        failSession(p, seedOf(result));
        return undefined;
      }
      const adopted = adoptCommit(p, { baseRevision: start, entries: result.entries, descendants: result.descendants });
      if (!adopted.ok) throw new Error(`the commit of child unit ${unitId} could not be taken in: ${adopted.message}`);
      return result.output;
    };
    this.placement.expectProxy(parent.inner.id);
    const outcome = await parent.inner.spawn(proxy, {
      ...(options.name !== undefined ? { name: options.name } : {}),
      ...(options.budget ? { budget: withoutWallClock(options.budget) } : {}),
      ...(options.retry ? { retry: options.retry } : {}),
    });
    for (const id of attempts) this.proxies.delete(id);
    if (outcome.status !== 'failed') return outcome;
    // the child's failure as it had it (its path in the run's tree, what it discarded), at the proxy's attempt
    const remote = remoteFailures.get(outcome.sessionId);
    if (!remote || remote.kind !== outcome.failure.kind) return outcome;
    return { ...outcome, failure: { ...remote, attempt: outcome.failure.attempt, at: outcome.failure.at } };
  }
}

/** The failure a child unit recorded, as the seed its proxy ends with (the runtime adds its own accounting). */
function seedOf(result: Extract<UnitResult, { status: 'failed' }>) {
  const { kind, category, message, error, conflicts } = result.failure;
  return { kind, category, message, ...(error ? { error } : {}), ...(conflicts ? { conflicts } : {}) };
}

/**
 * A budget's tokens and requests, without its wall clock: the part carved in the parent's tree
 * (the child unit keeps the wall clock, from its recorded first start).
 */
export function withoutWallClock<B extends { readonly ms?: number | undefined }>({ ms: _, ...meters }: B): Omit<B, 'ms'> {
  return meters;
}

/**
 * What the child unit may spend: what its proxy has left now (its carved budget, or what it
 * spends from up the tree; unlimited meters stay absent), and the spawn's wall-clock budget.
 */
function carriedBudget(p: Session, budget: BudgetSpec | undefined): BudgetSpec | null {
  const left = p.charge({});
  const out: { tokens?: number; requests?: number; ms?: number } = {};
  if (left.ok) {
    if (Number.isFinite(left.remaining.tokens)) out.tokens = left.remaining.tokens;
    if (Number.isFinite(left.remaining.requests)) out.requests = left.remaining.requests;
  }
  if (budget?.ms !== undefined) out.ms = budget.ms;
  return Object.keys(out).length > 0 ? out : null;
}

/** Why a spawn of a registered body is refused before it runs, or null. */
function remoteRefusal(name: string, options: SpawnOptions<unknown>): DurableError | null {
  const problem = jsonProblem(options.input, 'input');
  if (problem) return new DurableError('DURABLE_UNSERIALISABLE', `the input of a spawn of body ${name} cannot be recorded: ${problem}`);
  return null;
}
