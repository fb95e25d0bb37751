import { createActor, toPromise } from 'xstate';
import type { AnyActorLogic } from 'xstate';
import type { SessionMachineEvent } from '../sessionMachine.ts';
import type { SessionNode } from './SessionNode.ts';
import type { Tracing } from './tracing/Tracing.ts';

/** How a body ended, as its session machine is told. */
export type BodyEnded = Extract<SessionMachineEvent, { type: 'BODY_DONE' | 'BODY_FAILED' }>;

/**
 * Runs a session's body outside any actor step and reports how it ended: a function body is
 * called directly (no actor of its own: a session is one actor), actor logic runs as an actor
 * started with input `{ session }`. A synchronous throw is reported like a rejection.
 *
 * The body starts on a microtask, never inside the call that spawned its session: a body that
 * spawns before its first `await` would otherwise start each child inside its parent's spawn,
 * and a tree deep enough would overflow the stack half-way through its sessions' starts. A
 * traced session's body starts with its span active (spans the body makes, the AI SDK's among
 * them, nest under it; the context follows its awaits); an untraced one, with no wrapper at all.
 */
export function runBody(node: SessionNode, ended: (node: SessionNode, event: BodyEnded) => void, tracing: Tracing): void {
  if (node.trace) queueMicrotask(() => tracing.run(node.trace, () => startBody(node, ended)));
  else queueMicrotask(() => startBody(node, ended));
}

function startBody(node: SessionNode, ended: (node: SessionNode, event: BodyEnded) => void): void {
  let running: Promise<unknown>;
  try {
    running = Promise.resolve(typeof node.body === 'function' ? node.body(node.handle as never) : runActorBody(node));
  } catch (thrown) {
    running = Promise.reject(thrown);
  }
  running.then(
    (output) => ended(node, { type: 'BODY_DONE', output, liveChildren: node.childCount }),
    (error: unknown) => ended(node, { type: 'BODY_FAILED', error }),
  );
}

function runActorBody(node: SessionNode): Promise<unknown> {
  const actor = createActor(node.body as AnyActorLogic, { input: { session: node.handle } });
  node.stopBody = () => actor.stop();
  actor.start();
  return toPromise(actor);
}
