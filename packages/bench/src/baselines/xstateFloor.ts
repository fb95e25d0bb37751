import { assign, createActor, sendParent, setup } from 'xstate';

/** A child that does nothing but tell its parent it is done, and stop. */
const bareChild = setup({}).createMachine({
  id: 'bare',
  initial: 'telling',
  states: {
    telling: { entry: sendParent({ type: 'DONE' }), always: 'done' },
    done: { type: 'final' },
  },
});

/** A parent that counts its children's events. */
const countingParent = setup({
  types: { context: {} as { done: number }, events: {} as { type: 'DONE' } },
}).createMachine({
  context: { done: 0 },
  on: {
    DONE: { actions: assign({ done: ({ context }) => context.done + 1 }) },
  },
});

/**
 * The floor set by the actor library itself: `count` bare xstate child actors under one
 * parent, each sending one event to it and stopping. Children join the parent's actor system
 * with `createActor(child, { parent })`, as Cohort's sessions do (xstate's `spawn` would copy
 * the parent's children map each time). Resolves when the parent has counted every event.
 */
export async function xstateFloor(count: number): Promise<void> {
  const parent = createActor(countingParent);
  const all = new Promise<void>((resolve) => {
    parent.subscribe((snapshot) => {
      if (snapshot.context.done === count) resolve();
    });
  });
  parent.start();
  for (let i = 0; i < count; i++) createActor(bareChild, { parent }).start();
  await all;
  parent.stop();
}
