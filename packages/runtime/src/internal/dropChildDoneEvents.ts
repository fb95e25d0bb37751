import type { AnyActorRef, AnyEventObject } from 'xstate';

/** The prefix of the event xstate sends a parent when its child reaches a final state. */
const CHILD_DONE = 'xstate.done.actor.';

/**
 * Keeps the done events of an actor's session children (`xstate.done.actor.<child id>`) away
 * from its machine — the root supervisor's, or a session's that spawned. Why: xstate memoizes,
 * per state node and per event type, which transitions an event may take
 * (`memo(stateNode, 'candidates-' + type)` in its `StateNode.next`), and a child's done event is
 * typed by the child's id — so every session that ever settled would leave a key in its parent
 * machine's state nodes for the life of the process, a heap that grows with every session in a
 * long-running service (the soak benchmark, row 8); and each would cost its parent a machine
 * step. No machine acts on them (a session's outcome reaches its parent through the runtime),
 * so they are dropped before the machine sees them; the inspector still sees each one arrive.
 * Every other event goes through: a child's error event, and the done event of an actor the
 * machine spawned itself (one in its snapshot's `children`, such as the root supervisor's merge
 * actor). Session actors join the system with `createActor(logic,
 * { parent })` and are never among those children.
 *
 * `_send` is the actor's internal mailbox entry (xstate 5.33, pinned): the one place a relayed
 * event enters an actor.
 */
export function dropChildDoneEvents(actor: AnyActorRef): void {
  const internal = actor as unknown as { _send(event: AnyEventObject): void };
  const send = internal._send.bind(actor);
  internal._send = (event) => {
    if (!event.type.startsWith(CHILD_DONE) || spawnedBy(actor, event)) send(event);
  };
}

/** Whether the done event comes from an actor the machine spawned itself. */
function spawnedBy(actor: AnyActorRef, event: AnyEventObject): boolean {
  const children = (actor.getSnapshot() as { children?: Record<string, unknown> }).children;
  const id: unknown = event.actorId;
  return children !== undefined && typeof id === 'string' && Object.hasOwn(children, id);
}
