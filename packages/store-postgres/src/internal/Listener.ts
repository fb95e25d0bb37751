import type pg from 'pg';
import type { StoreClock } from '@cohort/store';

/** What the listener needs: a fresh client each time it connects, the channel, the clock for back-off. */
export interface ListenerOptions {
  readonly connect: () => pg.Client;
  readonly channel: string;
  readonly clock: StoreClock;
  /** A revision was committed somewhere (the payload's), or — after a (re)connection — notifications may have been missed (`null`). */
  readonly onRevision: (revision: number | null) => void;
}

/**
 * One connection that `LISTEN`s for the store's channel. Every group that commits sends its
 * revision on it (`pg_notify`, delivered at COMMIT), so other runtimes learn of new revisions
 * without polling. When the connection drops, notifications sent meanwhile are lost: it
 * reconnects with back-off (100 ms doubling to 5 s) and, once listening again, says so with
 * `onRevision(null)`, so the store catches up from the commits table.
 */
export class Listener {
  private client: pg.Client | null = null;
  private timer: unknown = null;
  private stopped = false;
  private backoff = 100;

  constructor(private readonly options: ListenerOptions) {}

  /** Connects and listens; resolves once listening (or once the first attempt failed: it keeps trying). */
  async start(): Promise<boolean> {
    return this.connect();
  }

  private async connect(): Promise<boolean> {
    if (this.stopped) return false;
    const client = this.options.connect();
    this.client = client;
    let failed = false;
    const fail = (): void => {
      if (failed) return;
      failed = true;
      client.removeAllListeners('notification');
      void client.end().catch(() => undefined);
      if (this.client === client) this.client = null;
      this.retry();
    };
    client.on('error', fail);
    client.on('end', fail);
    client.on('notification', (n) => {
      const revision = Number(n.payload);
      this.options.onRevision(Number.isSafeInteger(revision) ? revision : null);
    });
    try {
      await client.connect();
      await client.query(`LISTEN "${this.options.channel}"`);
    } catch {
      fail();
      return false;
    }
    this.backoff = 100;
    this.options.onRevision(null);
    return true;
  }

  private retry(): void {
    if (this.stopped || this.timer !== null) return;
    const wait = this.backoff;
    this.backoff = Math.min(this.backoff * 2, 5_000);
    this.timer = this.options.clock.setTimeout(() => {
      this.timer = null;
      void this.connect();
    }, wait);
  }

  /** Stops listening and closes the connection. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer !== null) this.options.clock.clearTimeout(this.timer);
    this.timer = null;
    const client = this.client;
    this.client = null;
    if (client) {
      client.removeAllListeners('end');
      client.removeAllListeners('notification');
      client.on('error', () => undefined);
      await client.end().catch(() => undefined);
    }
  }
}
