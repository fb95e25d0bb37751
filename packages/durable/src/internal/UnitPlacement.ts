import type { PlacedEvent, RuntimeEvent, SessionEvent, SessionFailure, SessionId } from '@cohort/runtime';

/** Where a unit runs: its id, the worker running it, and the session of the parent's tree its root session is. */
export interface UnitPlace {
  readonly unitId: string;
  /** The worker's executor id (absent: the events name no worker). */
  readonly worker?: string | undefined;
  /** The runtime id of the unit's sessions (`unitRuntimeId`). */
  readonly runtimeId: string;
  /** The session in the parent's tree that the unit's root session is (absent for the run's root). */
  readonly home?: { readonly sessionId: string; readonly path: readonly string[] } | undefined;
  /** Whether model and tool calls (`session.call`) are kept. */
  readonly calls: boolean;
}

/**
 * Turns the events of one unit's runtime into events of the run's tree, placed on the worker
 * that ran them. A unit runs in a runtime of its own, so:
 *
 * - its root session is renamed to its home — the proxy session of its parent's unit — and
 *   every path under it is put under the home's path, as the unit's result is;
 * - what its root did inside the unit's runtime (its commit to the unit's own in-memory store,
 *   the store's notices) is no event of the tree: its commit arrives in its parent through the
 *   proxy, and the run root's landing is reported once the store took it;
 * - a proxy's events name no worker (the proxy only waits on its parent's worker: its body ran
 *   where its child unit did), and a proxy that failed because its child unit failed carries
 *   the child's own failure, as its outcome does.
 */
export class UnitPlacement {
  private readonly root: string;
  private readonly proxies = new Map<string, SessionFailure | null>();
  /** Parents (by their id in the unit's runtime) whose next spawned session is a proxy. */
  private readonly armed = new Map<string, number>();

  constructor(private readonly place: UnitPlace) {
    this.root = `${place.runtimeId}.1`;
  }

  get worker(): string | undefined {
    return this.place.worker;
  }

  get unitId(): string {
    return this.place.unitId;
  }

  /** The id and path of the unit's root session in the run's tree. */
  get home(): { sessionId: SessionId; path: SessionId[] } {
    const home = this.place.home;
    return home
      ? { sessionId: home.sessionId as SessionId, path: home.path as SessionId[] }
      : { sessionId: this.root as SessionId, path: [this.root as SessionId] };
  }

  /**
   * The next session `parentId` spawns is a proxy: call it just before the spawn, which emits
   * its `session.spawned` at once (so no other spawn of that parent comes between).
   */
  expectProxy(parentId: string): void {
    this.armed.set(parentId, (this.armed.get(parentId) ?? 0) + 1);
  }

  /** Session `sessionId` of this unit is a proxy of a child unit. */
  proxy(sessionId: string): void {
    if (!this.proxies.has(sessionId)) this.proxies.set(sessionId, null);
  }

  /** The child unit of proxy `sessionId` failed with `failure`: the proxy's failure event carries it. */
  proxyFailed(sessionId: string, failure: SessionFailure): void {
    this.proxies.set(sessionId, failure);
  }

  /** The event in the run's tree, or null when it is none of the tree's. */
  map(event: RuntimeEvent): PlacedEvent | null {
    if (event.type.startsWith('store.')) return null;
    const e = event as SessionEvent;
    if (e.type === 'runtime.defect') return { ...e, ...this.where(null) };
    if ((e.type === 'session.merged' || e.type === 'session.rejected') && e.into === 'root') return null;
    if (e.type === 'session.call' && !this.place.calls) return null;
    if (e.type === 'session.spawned' && e.parentId !== null) this.disarm(e.parentId, e.sessionId);
    const home = this.place.home !== undefined;
    if (home && e.type === 'session.committed' && e.sessionId === this.root) return null;
    const sessionId = this.id(e.sessionId);
    const path = this.path(e.path);
    const moved = { ...e, sessionId, path, ...this.where(e.sessionId) };
    switch (moved.type) {
      case 'session.spawned':
        return { ...moved, parentId: path.length > 1 ? (path[path.length - 2] ?? null) : null, depth: path.length - 1 };
      case 'session.merged':
      case 'session.rejected':
        return { ...moved, into: this.id(moved.into) };
      case 'session.failed': {
        const failure = this.proxies.get(e.sessionId) ?? moved.failure;
        return { ...moved, failure: { ...failure, sessionId: this.id(failure.sessionId), path: this.path(failure.path) } };
      }
      default:
        return moved;
    }
  }

  private disarm(parentId: string, sessionId: string): void {
    const armed = this.armed.get(parentId);
    if (armed === undefined) return;
    if (armed <= 1) this.armed.delete(parentId);
    else this.armed.set(parentId, armed - 1);
    this.proxy(sessionId);
  }

  private where(sessionId: string | null): { worker?: string; unit: string } {
    const worker = this.place.worker;
    const named = worker !== undefined && (sessionId === null || !this.proxies.has(sessionId));
    return { unit: this.place.unitId, ...(named ? { worker } : {}) };
  }

  private id(id: string): SessionId {
    const home = this.place.home;
    return (home && id === this.root ? home.sessionId : id) as SessionId;
  }

  private path(path: readonly string[]): SessionId[] {
    const home = this.place.home;
    return (home && path[0] === this.root ? home.path.concat(path.slice(1)) : [...path]) as SessionId[];
  }
}
