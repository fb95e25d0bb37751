import type { SkillId } from '@cohort/skillbook';
import type { Clock, SessionFailure, SessionOutcome } from '@cohort/runtime';
import type { AuditBlock, Store, StoreError } from '@cohort/store';
import { DurableError } from '../DurableError.ts';
import type { UnitResult } from '../UnitSpec.ts';
import { RECONNECT_TRIES, askAgainWhile } from './retry.ts';
import { runUnit, unitRuntimeId } from './UnitRun.ts';
import type { UnitHost } from './UnitRun.ts';
import { watchUnit } from './UnitWatch.ts';
import type { UnitWatch } from './UnitWatch.ts';

/** The input of a run's root workflow. */
export interface RootSpec {
  readonly runId: string;
  readonly body: string;
  readonly input: unknown;
  readonly name?: string | undefined;
  readonly timeoutMs?: number | undefined;
}

/** What appending the root's commit gave, recorded once per run. */
type Appended =
  | { readonly ok: true; readonly revision: number }
  | { readonly ok: false; readonly code: string; readonly message: string; readonly conflicts?: SessionFailure['conflicts'] };

/**
 * Runs a run's root unit and hands its commit to the store, once: the store's revision the
 * tree starts from is recorded first (a resumed run starts from the same book), the unit runs,
 * and its commit is appended unless the store's history has it already (a crash between the
 * append and its record). The outcome is `rt.run`'s: the body's output, the store's revision
 * after the merge, the ids the commit added.
 */
export async function runRoot(host: UnitHost, spec: RootSpec): Promise<SessionOutcome> {
  const base = await host.journal.recorded(spec.runId, 'base', async () => (await host.store.load()).revision);
  const unit = {
    unitId: spec.runId,
    body: spec.body,
    input: spec.input,
    view: { baseRevision: base, ops: [] },
    ...(spec.name !== undefined ? { name: spec.name } : {}),
    ...(spec.timeoutMs ? { timeoutMs: spec.timeoutMs } : {}),
  };
  const watch = watchUnit(host, unit, unitRuntimeId(spec.runId));
  const result = await runUnit(host, unit, watch);
  const outcome = await landRoot(host, spec, base, result);
  await reportLanding(watch, outcome, result, host.clock?.now() ?? Date.now());
  return outcome;
}

/** Appends the root unit's commit to the store, once per run; the run's outcome. */
async function landRoot(host: UnitHost, spec: RootSpec, base: number, result: UnitResult): Promise<SessionOutcome> {
  if (result.status === 'failed') {
    return { status: 'failed', sessionId: result.failure.sessionId, path: result.failure.path, failure: result.failure };
  }
  const appended = await host.journal.recorded<Appended>(spec.runId, 'append', () =>
    appendOnceRetried(host.store, base, result, { clock: host.clock }),
  );
  const sessionId = result.sessionId as SessionFailure['sessionId'];
  const path = result.path as SessionFailure['path'];
  if (!appended.ok) {
    const failure: SessionFailure = {
      kind: appended.code === 'conflict' ? 'conflict' : 'invalid_commit',
      category: 'error',
      sessionId,
      path,
      message: appended.message,
      ...(appended.conflicts ? { conflicts: appended.conflicts } : {}),
      discarded: { ops: result.entries.reduce((n, e) => n + e.ops.length, 0), descendants: result.descendants },
      attempt: result.attempt,
      at: host.clock?.now() ?? Date.now(),
    };
    return { status: 'failed', sessionId, path, failure };
  }
  const added: SkillId[] = [];
  for (const e of result.entries) for (const op of e.ops) if (op.type === 'ADD') added.push(op.skill_id as SkillId);
  const { output, attempt, refused } = result;
  return { status: 'committed', sessionId, path, output, revision: appended.revision, added, dropped: [], refused, attempt };
}

/**
 * The root's landing as an event of the run's log: merged into the book at the store's
 * revision, or failed (the store refused the commit). The unit's own runtime reported
 * everything before; its commit into its in-memory store is no landing.
 */
async function reportLanding(watch: UnitWatch, outcome: SessionOutcome, result: UnitResult, at: number): Promise<void> {
  if (!watch.events || result.status === 'failed') return;
  const where = { ...(watch.placement.worker !== undefined ? { worker: watch.placement.worker } : {}), unit: watch.placement.unitId };
  const { sessionId, path } = outcome;
  if (outcome.status === 'committed') {
    const ops = result.entries.reduce((n, e) => n + e.ops.length, 0);
    watch.events.push({
      type: 'session.merged',
      sessionId,
      path: [...path],
      at,
      into: 'root',
      revision: outcome.revision,
      ops,
      dropped: [],
      ...where,
    });
  } else {
    watch.events.push({ type: 'session.failed', sessionId, path: [...path], at, failure: outcome.failure, ...where });
  }
  await watch.events.flush();
}

/** The root's commit, as {@link appendOnce} appends it. */
type RootCommit = Extract<UnitResult, { status: 'committed' }>;

/**
 * {@link appendOnce}, asked again while the store cannot reach its database (a restart, a
 * terminated connection): each try looks the commit up in the history first, so a commit that
 * landed is not appended twice. Past the last try, throws `DURABLE_STORE_UNAVAILABLE` and the
 * run fails with it; nothing of the run is in the store.
 */
export async function appendOnceRetried(
  store: Store,
  base: number,
  result: RootCommit,
  {
    clock,
    tries = RECONNECT_TRIES,
    sleep,
  }: { readonly clock?: Clock | undefined; readonly tries?: number; readonly sleep?: (ms: number) => Promise<void> } = {},
): Promise<Appended> {
  const appended = await askAgainWhile(
    () => appendOnce(store, base, result, clock),
    (a) => 'unavailable' in a,
    tries,
    sleep,
  );
  if (!('unavailable' in appended)) return appended;
  const message = `the store could not take the root commit (tried ${tries} times): ${appended.unavailable.message}`;
  throw new DurableError('DURABLE_STORE_UNAVAILABLE', message, { cause: asError(appended.unavailable) });
}

/** A store's refusal as an error of the cause chain: its code and message, and what the store got (the driver's error). */
function asError(e: StoreError): Error {
  return Object.assign(new Error(e.message, e.cause !== undefined ? { cause: e.cause } : {}), { code: e.code });
}

/**
 * Appends the root's commit unless the history past `base` holds it already; `unavailable`
 * when the store could not reach its database (nothing of the append was kept).
 */
export async function appendOnce(
  store: Store,
  base: number,
  result: RootCommit,
  clock?: Clock,
): Promise<Appended | { readonly unavailable: StoreError }> {
  for (let after = base; ; ) {
    // not asked again here: appendOnceRetried asks again for the whole look-up and append
    const page = await store.history({ after, limit: 200 });
    if (!page.ok) {
      if (page.error.code === 'io') return { unavailable: page.error };
      throw new Error(`the store's history could not be read: ${page.error.message}`);
    }
    const found = page.commits.find((c) => c.kind === 'commit' && c.sessionId === result.sessionId);
    if (found) return { ok: true, revision: found.revision };
    if (page.next === null) break;
    after = page.next;
  }
  if (result.entries.length === 0) return { ok: true, revision: (await store.load()).revision };
  const at = clock?.now() ?? Date.now();
  const entries: AuditBlock[] = result.entries.map((e) => ({
    sessionId: e.sessionId,
    path: e.path,
    ...(e.name !== undefined ? { name: e.name } : {}),
    ops: e.ops,
    at,
  }));
  const { sessionId, path } = result;
  const res = await store.append({ expectedRevision: base, basis: 'store', sessionId, path, entries, allocation: 'leased', at });
  if (res.ok) return { ok: true, revision: res.revision };
  if (res.error.code === 'conflict' || res.error.code === 'invalid_commit') {
    const { code, message, conflicts } = res.error;
    return { ok: false, code, message, ...(conflicts ? { conflicts: [...conflicts] } : {}) };
  }
  if (res.error.code === 'io') return { unavailable: res.error };
  // the store refused for another reason (closed): nothing is recorded, the run fails as a crash
  throw new Error(`the store could not take the root commit: ${res.error.message}`);
}
