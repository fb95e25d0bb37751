import { WORKERS_TABLE } from './Journal.ts';

/** What the takeover asks of the database (the journal's pool). */
export interface Queryable {
  query<R extends object>(text: string, params: unknown[]): Promise<{ rows: R[] }>;
}

/** How a worker beats and when it takes over another's work. */
export interface TakeoverTiming {
  /** How often this worker records that it is alive, and looks for dead ones, in ms. */
  readonly heartbeatMs: number;
  /** How old another worker's last beat must be before this one takes over its work, in ms (0: never). */
  readonly takeoverAfterMs: number;
}

/**
 * Heartbeats, and the takeover of a dead worker's units. Every `heartbeatMs` a worker records
 * its beat (the database's clock, so the machines' clocks do not matter) and claims, in one
 * UPDATE, the workers of its own application version whose last beat is older than
 * `takeoverAfterMs` and that nobody adopted yet; for each claimed one it calls `adopt` — DBOS's
 * recovery of that executor's pending workflows, which puts them back on their queues for any
 * live worker. A worker started again with an adopted id clears the claim with its first beat.
 * A failed adoption is released, so that a later beat (of any worker) claims it again; the
 * adopter recovers a worker it claimed again at each beat for `takeoverAfterMs` after the
 * claim (nothing is left of it after the first, unless the claim's answer was lost with its
 * connection), then no more.
 */
export class Takeover {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Queryable,
    private readonly executorId: string,
    private readonly appVersion: string,
    private readonly timing: TakeoverTiming,
    private readonly adopt: (executorId: string) => Promise<unknown>,
    private readonly onError: (err: unknown) => void = () => undefined,
  ) {}

  /** Records the first beat, then beats and looks for dead workers every `heartbeatMs`. */
  async start(): Promise<void> {
    await this.beat();
    this.timer = setInterval(() => {
      this.running = this.running.then(() => this.tick()).catch(this.onError);
    }, this.timing.heartbeatMs);
    this.timer.unref();
  }

  /** One beat and one look for dead workers. */
  async tick(): Promise<void> {
    await this.beat();
    if (this.timing.takeoverAfterMs > 0) await this.takeOver();
  }

  /** Stops beating (another worker takes over what this one leaves, `takeoverAfterMs` later). */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  private async beat(): Promise<void> {
    await this.db.query(
      `INSERT INTO ${WORKERS_TABLE} (executor, app_version) VALUES ($1, $2)
       ON CONFLICT (executor) DO UPDATE SET beat_at = now(), app_version = $2, adopted_by = NULL, adopted_at = NULL`,
      [this.executorId, this.appVersion],
    );
  }

  private async takeOver(): Promise<void> {
    const { rows } = await this.db.query<{ executor: string }>(
      `UPDATE ${WORKERS_TABLE} SET adopted_by = $1, adopted_at = COALESCE(adopted_at, now())
       WHERE executor <> $1 AND app_version = $2
         AND beat_at < now() - make_interval(secs => $3::double precision / 1000)
         AND (adopted_by IS NULL OR (adopted_by = $1 AND adopted_at > now() - make_interval(secs => $3::double precision / 1000)))
       RETURNING executor`,
      [this.executorId, this.appVersion, this.timing.takeoverAfterMs],
    );
    for (const { executor } of rows) {
      try {
        await this.adopt(executor);
      } catch (err) {
        await this.db.query(`UPDATE ${WORKERS_TABLE} SET adopted_by = NULL, adopted_at = NULL WHERE executor = $1 AND adopted_by = $2`, [
          executor,
          this.executorId,
        ]);
        this.onError(err);
      }
    }
  }
}
