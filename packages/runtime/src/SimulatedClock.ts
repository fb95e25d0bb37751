import type { Clock } from './Clock.ts';
import { die } from './errors.ts';

interface Timer {
  readonly id: number;
  readonly at: number;
  readonly fn: () => void;
}

/**
 * Virtual time for tests and simulations: time moves only when `advance` (or `runAll`) moves
 * it; timers due at the same instant fire in the order they were set.
 *
 * @example
 * const clock = new SimulatedClock(0);
 * clock.setTimeout(() => console.log('fired'), 10);
 * clock.advance(10); // prints "fired"
 */
export class SimulatedClock implements Clock {
  private current: number;
  private nextId = 1;
  private readonly timers = new Map<number, Timer>();

  constructor(start = Date.UTC(2026, 0, 1)) {
    this.current = start;
  }

  now(): number {
    return this.current;
  }

  setTimeout(fn: () => void, ms: number): number {
    const id = this.nextId++;
    this.timers.set(id, { id, at: this.current + Math.max(0, ms), fn });
    return id;
  }

  clearTimeout(handle: unknown): void {
    this.timers.delete(handle as number);
  }

  /** How many timers are waiting. */
  get pending(): number {
    return this.timers.size;
  }

  /** The time of the earliest waiting timer, if any. */
  nextAt(): number | undefined {
    let min: number | undefined;
    for (const t of this.timers.values()) if (min === undefined || t.at < min) min = t.at;
    return min;
  }

  /** Moves time forward by `ms` (finite, not negative), firing every timer that falls due, in time order. */
  advance(ms: number): void {
    if (!Number.isFinite(ms) || ms < 0) die('CLOCK_INVALID_ADVANCE', ms);
    const target = this.current + ms;
    for (;;) {
      const due = this.earliestDue(target);
      if (!due) break;
      this.timers.delete(due.id);
      this.current = due.at;
      due.fn();
    }
    this.current = target;
  }

  /** Jumps to the next timer and fires everything due then; false when none is waiting. */
  step(): boolean {
    const at = this.nextAt();
    if (at === undefined) return false;
    this.advance(at - this.current);
    return true;
  }

  /**
   * Drives virtual time until `promise` settles: lets pending work run (a macrotask turn),
   * then fires the next timer, and so on. Rejects when nothing is left to fire and the
   * promise is still pending (a hang: code `CLOCK_OUT_OF_TIMERS`), or after `maxSteps` timers
   * (code `CLOCK_RUNAWAY`).
   */
  async settle<T>(promise: Promise<T>, maxSteps = 1_000_000): Promise<T> {
    let done = false;
    promise.then(
      () => (done = true),
      () => (done = true),
    );
    for (let steps = 0; steps < maxSteps; steps++) {
      await turn();
      if (done) return promise;
      if (!this.step()) {
        await turn();
        if (done) return promise;
        if (this.timers.size === 0) die('CLOCK_OUT_OF_TIMERS');
      }
    }
    die('CLOCK_RUNAWAY', maxSteps);
  }

  private earliestDue(limit: number): Timer | undefined {
    let best: Timer | undefined;
    for (const t of this.timers.values()) {
      if (t.at > limit) continue;
      if (!best || t.at < best.at || (t.at === best.at && t.id < best.id)) best = t;
    }
    return best;
  }
}

function turn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
