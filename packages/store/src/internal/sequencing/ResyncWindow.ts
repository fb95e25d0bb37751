import type { StoreClock } from '../../StoreClock.ts';
import type { CommitSequencer } from './CommitSequencer.ts';

/**
 * Ends a speculative client's divergence once it has had the chance to resync: when no
 * append is in flight any more and a timer turn has passed (so the client's handlers for
 * the last results have run), the client's next `expectedRevision` is a revision the store
 * reported, and the sequencer checks it exactly again. Without this, one refused append
 * would make every later one be checked from before it, refusing commits that conflict
 * only with the client's own earlier commits.
 */
export class ResyncWindow {
  private inFlight = 0;
  private timer: unknown = null;
  private disposed = false;

  constructor(
    private readonly clock: StoreClock,
    private readonly sequencer: CommitSequencer,
  ) {}

  /** An append was submitted. */
  opened(): void {
    this.inFlight += 1;
    if (this.timer !== null) this.clock.clearTimeout(this.timer);
    this.timer = null;
  }

  /** An append's result was delivered. */
  settled(): void {
    this.inFlight -= 1;
    if (this.disposed || this.inFlight > 0 || this.sequencer.state.divergence === null) return;
    this.timer = this.clock.setTimeout(() => {
      this.timer = null;
      if (this.inFlight === 0) this.sequencer.resync();
    }, 0);
  }

  /**
   * Runs `append` with the window open, and settles it once the result is delivered (before the
   * caller's own reactions to it run).
   */
  watch<T>(append: () => Promise<T>): Promise<T> {
    this.opened();
    const done = append();
    const settle = (): void => this.settled();
    void done.then(settle, settle);
    return done;
  }

  /** Stops the timer (closing). */
  dispose(): void {
    this.disposed = true;
    if (this.timer !== null) this.clock.clearTimeout(this.timer);
    this.timer = null;
  }
}
