import { createActor, setup } from 'xstate';

/**
 * The least a session is, as an xstate actor: alive while its body runs (so that it can still
 * be failed or cancelled), told when the body is done, committing, and told the verdict — at
 * once, as a parent that merges a commit as it arrives answers. No Skillbook, no draft, no
 * merge, no bookkeeping.
 */
const protocolSession = setup({
  types: { events: {} as { type: 'BODY_DONE' } | { type: 'MERGED' } | { type: 'FAIL' } },
}).createMachine({
  id: 'protocolSession',
  initial: 'running',
  states: {
    running: { on: { BODY_DONE: 'committing', FAIL: 'failed' } },
    committing: { entry: ({ self }) => self.send({ type: 'MERGED' }), on: { MERGED: 'committed', FAIL: 'failed' } },
    committed: { type: 'final' },
    failed: { type: 'final' },
  },
});

/** The parent of the sessions: their actors are its children, in its actor system, as Cohort's are their parent session's. */
const parentMachine = setup({}).createMachine({ id: 'protocolParent' });

/**
 * `count` sessions reduced to their protocol, each with an async body that ends in a later
 * microtask. With the unsafe baseline (the writes themselves, with no isolation) it bounds from
 * below what any fan-out of xstate sessions costs: a Cohort session does all of this and more
 * (validation, a private draft, the merges, events, accounting).
 */
export async function sessionProtocol(count: number): Promise<void> {
  const parent = createActor(parentMachine).start();
  await Promise.all(
    Array.from({ length: count }, async () => {
      const session = createActor(protocolSession, { parent });
      const settled = new Promise<void>((resolve) => session.subscribe({ complete: resolve }));
      session.start();
      await Promise.resolve();
      session.send({ type: 'BODY_DONE' });
      await settled;
    }),
  );
  parent.stop();
}
