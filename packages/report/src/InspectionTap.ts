import { Subject } from 'rxjs';
import type { Observable } from 'rxjs';
import type { InspectionEvent } from 'xstate';
import type { SupervisorView } from './Recording.ts';

/** A machine state a session or the root supervisor entered, read from xstate's inspection events. */
export type MachineStateChange =
  | { readonly kind: 'session'; readonly sessionId: string; readonly state: string }
  | ({ readonly kind: 'supervisor' } & SupervisorView);

/** Options of {@link createInspectionTap}. */
export interface InspectionTapOptions {
  /** Another inspector that gets every inspection event as well (e.g. `@statelyai/inspect`'s `inspect`). */
  readonly forward?: (event: InspectionEvent) => void;
}

/**
 * Reads a runtime's xstate inspection events and keeps what a person watching needs: each
 * session machine's state as it changes, and the root supervisor's state and queue. Pass its
 * `inspect` to `createRuntime({ inspect })`; recorders and live views subscribe to `changes$`.
 */
export interface InspectionTap {
  /** The inspection observer to pass to `createRuntime({ inspect })`. */
  readonly inspect: (event: InspectionEvent) => void;
  /** Every state change, as it happens. */
  readonly changes$: Observable<MachineStateChange>;
  /** The root supervisor as last seen, or null before its first snapshot. */
  readonly supervisor: SupervisorView | null;
}

/**
 * Creates an {@link InspectionTap}.
 *
 * @example
 * const tap = createInspectionTap();
 * const rt = createRuntime({ inspect: tap.inspect });
 * const recorder = recordRun(rt, { inspection: tap });
 */
export function createInspectionTap(options: InspectionTapOptions = {}): InspectionTap {
  return new Tap(options.forward ?? null);
}

interface SessionContextLike {
  readonly sessionId?: unknown;
  readonly path?: unknown;
  readonly depth?: unknown;
  readonly failure?: unknown;
}

interface SupervisorContextLike {
  readonly ownerId?: unknown;
  readonly inFlight?: unknown;
  readonly waiting?: unknown;
}

class Tap implements InspectionTap {
  private readonly subject = new Subject<MachineStateChange>();
  readonly changes$ = this.subject.asObservable();
  supervisor: SupervisorView | null = null;
  /** Each live session machine's last state; a session leaves it when its machine is done. */
  private readonly last = new Map<string, string>();

  constructor(private readonly forward: ((event: InspectionEvent) => void) | null) {}

  readonly inspect = (event: InspectionEvent): void => {
    if (event.type === '@xstate.snapshot') this.snapshot(actorIdOf(event.actorRef), event.snapshot);
    this.forward?.(event);
  };

  private snapshot(actorId: string, snapshot: unknown): void {
    const snap = snapshot as { value?: unknown; status?: unknown; context?: unknown };
    const state = stateName(snap.value);
    if (state === null || typeof snap.context !== 'object' || snap.context === null) return;
    // known by its context's shape, not by its actor id: the session id is in the context
    const session = snap.context as SessionContextLike;
    if (typeof session.sessionId === 'string' && Array.isArray(session.path) && typeof session.depth === 'number' && 'failure' in session) {
      this.session(session.sessionId, state, snap.status === 'done');
      return;
    }
    const supervisor = snap.context as SupervisorContextLike;
    if (supervisor.ownerId === 'root' && Array.isArray(supervisor.inFlight) && Array.isArray(supervisor.waiting)) {
      const view = { actorId, state, inFlight: supervisor.inFlight.length, waiting: supervisor.waiting.length };
      const old = this.supervisor;
      this.supervisor = view;
      if (!old || old.state !== view.state || old.inFlight !== view.inFlight || old.waiting !== view.waiting) {
        this.subject.next({ kind: 'supervisor', ...view });
      }
    }
  }

  private session(sessionId: string, state: string, done: boolean): void {
    if (this.last.get(sessionId) !== state) this.subject.next({ kind: 'session', sessionId, state });
    if (done) this.last.delete(sessionId);
    else this.last.set(sessionId, state);
  }
}

/** A machine's state by its own name: the value itself, or the one state a nested value leads to (`{ live: 'running' }`: `running`). */
function stateName(value: unknown): string | null {
  if (typeof value === 'string') return value;
  if (typeof value !== 'object' || value === null) return null;
  const inner = Object.values(value);
  return inner.length === 1 ? stateName(inner[0]) : null;
}

/** The actor's `id` (a session's id; xstate types it only on full actor refs), else its system session id. */
function actorIdOf(ref: { readonly sessionId: string }): string {
  const id = (ref as { readonly id?: unknown }).id;
  return typeof id === 'string' ? id : ref.sessionId;
}
