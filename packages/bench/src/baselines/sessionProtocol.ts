import { createActor, sendParent, setup } from 'xstate';
import type { AnyActorRef } from 'xstate';

/**
 * The least a session is, as xstate actors: alive while its body runs (so that it can still
 * be failed or cancelled), told when the body is done, sending its commit to its parent's
 * supervisor, and told the verdict. No Skillbook, no draft, no merge, no bookkeeping.
 */
const protocolSession = setup({
  types: { events: {} as { type: 'BODY_DONE' } | { type: 'MERGED' } | { type: 'FAIL' } },
}).createMachine({
  id: 'protocolSession',
  initial: 'running',
  states: {
    running: { on: { BODY_DONE: 'committing', FAIL: 'failed' } },
    committing: { entry: sendParent(({ self }) => ({ type: 'COMMIT', session: self })), on: { MERGED: 'committed', FAIL: 'failed' } },
    committed: { type: 'final' },
    failed: { type: 'final' },
  },
});

/** A supervisor that answers every commit at once with `MERGED`. */
const answeringSupervisor = setup({
  types: { events: {} as { type: 'COMMIT'; session: AnyActorRef } },
}).createMachine({
  id: 'answeringSupervisor',
  on: {
    COMMIT: {
      actions: ({ event }) => event.session.send({ type: 'MERGED' }),
    },
  },
});

/**
 * `count` sessions reduced to their protocol under one supervisor, each with an async body
 * that ends in a later microtask. With the unsafe baseline (the writes themselves, with no
 * isolation) it bounds from below what any fan-out of xstate sessions costs: a Cohort session
 * does all of this and more (validation, a private draft, the merges, events, accounting).
 */
export async function sessionProtocol(count: number): Promise<void> {
  const supervisor = createActor(answeringSupervisor).start();
  await Promise.all(
    Array.from({ length: count }, async () => {
      const session = createActor(protocolSession, { parent: supervisor });
      const settled = new Promise<void>((resolve) => session.subscribe({ complete: resolve }));
      session.start();
      await Promise.resolve();
      session.send({ type: 'BODY_DONE' });
      await settled;
    }),
  );
  supervisor.stop();
}
