/** Which of `ids` are cancelled (DBOS's workflow status). */
export type CancelledOf = (ids: readonly string[]) => Promise<readonly string[]>;

/**
 * The units running on this worker, and their cancellation: every `intervalMs` the worker asks
 * which of them are cancelled (by `durable.cancel` on any worker) and stops those — their
 * runtimes close, their sessions end as `cancelled`, nothing of them is merged.
 */
export class RunningUnits {
  private readonly stops = new Map<string, () => void>();
  private timer: NodeJS.Timeout | null = null;
  private sweeping: Promise<void> = Promise.resolve();

  constructor(
    private readonly cancelledOf: CancelledOf,
    private readonly intervalMs: number,
    private readonly onError: (err: unknown) => void = () => undefined,
  ) {}

  /** Remembers that `unitId` runs here; the function returned forgets it. */
  track(unitId: string, stop: () => void): () => void {
    this.stops.set(unitId, stop);
    return () => {
      if (this.stops.get(unitId) === stop) this.stops.delete(unitId);
    };
  }

  start(): void {
    this.timer = setInterval(() => {
      this.sweeping = this.sweeping.then(() => this.sweep()).catch(this.onError);
    }, this.intervalMs);
    this.timer.unref();
  }

  /** Stops the running units that are cancelled. */
  async sweep(): Promise<void> {
    if (this.stops.size === 0) return;
    for (const id of await this.cancelledOf([...this.stops.keys()])) {
      const stop = this.stops.get(id);
      this.stops.delete(id);
      stop?.();
    }
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.sweeping;
  }
}
