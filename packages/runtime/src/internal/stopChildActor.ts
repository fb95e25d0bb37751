import type { AnyActorRef } from 'xstate';

/**
 * Stops an actor that has a parent, as its parent's machine would (xstate's `stopChild`), for
 * an actor the runtime made with `createActor(logic, { parent })` — outside the parent's
 * snapshot, so no machine of xstate's stops it, and xstate's public `stop()` refuses a non-root
 * actor. Why it must stop: an actor stays registered in its actor system until it stops, and
 * with it everything its listeners hold — a settled session's supervisor kept its session's
 * whole tree alive for the life of the process, 9.5 KB per root session that spawned (the soak
 * benchmark, row 8).
 *
 * `_stop` is the actor's internal stop (xstate 5.33, pinned), the one `stopChild` calls.
 */
export function stopChildActor(actor: AnyActorRef): void {
  (actor as unknown as { _stop(): void })._stop();
}
