import type { SimulatedClock } from '@cohort/runtime';
import { withoutStacks } from './SimReport.ts';
import type { TimelineEntry, TimelineEvent } from './SimReport.ts';

/**
 * The run's timeline: every runtime event and harness event in the order it happened, stamped
 * with virtual ms since the run began and the epoch. Stack traces are dropped on the way in,
 * so the timeline is the same bytes on every machine.
 *
 * @example
 * const timeline = new Timeline(clock);
 * rt.events$.subscribe((e) => timeline.push(e));
 */
export class Timeline {
  readonly entries: TimelineEntry[] = [];
  /** The epoch events are stamped with. */
  epoch = 0;
  private readonly start: number;

  constructor(readonly clock: SimulatedClock) {
    this.start = clock.now();
  }

  /** Appends an event; returns its index. */
  push(event: TimelineEvent): number {
    this.entries.push({ t: this.clock.now() - this.start, epoch: this.epoch, event: withoutStacks(event) });
    return this.entries.length - 1;
  }

  /** Virtual ms since the run began. */
  get elapsed(): number {
    return this.clock.now() - this.start;
  }
}
