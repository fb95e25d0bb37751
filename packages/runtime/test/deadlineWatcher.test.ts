import { describe, expect, it } from 'vitest';
import { createActor, fromCallback, setup } from 'xstate';
import type { AnyActorRef } from 'xstate';
import { deadlineWatcher } from '../src/deadlineWatcher.ts';
import { SimulatedClock } from '../src/SimulatedClock.ts';

function harness() {
  const clock = new SimulatedClock(0);
  const root = createActor(setup({}).createMachine({})).start();
  const watcher = createActor(deadlineWatcher, { parent: root, input: { clock } }).start();
  const received: string[] = [];
  const session = (name: string): AnyActorRef =>
    createActor(
      fromCallback(({ receive }) => receive((e) => received.push(`${name} ${e.type} at ${clock.now()}`))),
      { parent: root },
    ).start();
  return { clock, watcher, received, session };
}

describe('deadlineWatcher', () => {
  it('deadlineWatcher - sends TIMEOUT and WALL_CLOCK on the runtime clock, in time order', () => {
    const { clock, watcher, received, session } = harness();
    const a = session('a');
    const b = session('b');
    watcher.send({ type: 'ARM', session: a, timeoutMs: 50, wallClockMs: 20 });
    watcher.send({ type: 'ARM', session: b, timeoutMs: 30, wallClockMs: undefined });
    clock.advance(100);
    // a's first deadline ends its watch: the later one is disarmed with it
    expect(received).toEqual(['a WALL_CLOCK at 20', 'b TIMEOUT at 30']);
    expect(clock.pending).toBe(0);
  });

  it('deadlineWatcher - a disarmed session is sent nothing, and its timers are cleared', () => {
    const { clock, watcher, received, session } = harness();
    const a = session('a');
    watcher.send({ type: 'ARM', session: a, timeoutMs: 50, wallClockMs: 80 });
    watcher.send({ type: 'DISARM', session: a });
    expect(clock.pending).toBe(0);
    clock.advance(100);
    expect(received).toEqual([]);
  });

  it('deadlineWatcher - CHECK sends a deadline the clock has passed at once, with no timer fired, and nothing before it', () => {
    const received: string[] = [];
    let now = 0;
    const frozen = { now: () => now, setTimeout: () => 0, clearTimeout: () => undefined };
    const root = createActor(setup({}).createMachine({})).start();
    const watcher = createActor(deadlineWatcher, { parent: root, input: { clock: frozen } }).start();
    const a = createActor(
      fromCallback(({ receive }) => receive((e) => received.push(`${e.type} at ${now}`))),
      { parent: root },
    ).start();
    watcher.send({ type: 'ARM', session: a, timeoutMs: 50, wallClockMs: 20 });
    now = 19;
    watcher.send({ type: 'CHECK', session: a });
    now = 60;
    watcher.send({ type: 'CHECK', session: a });
    watcher.send({ type: 'CHECK', session: a });
    expect(received).toEqual(['WALL_CLOCK at 60']);
  });
});
