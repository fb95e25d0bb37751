import { randomUUID } from 'node:crypto';
import type { PlacedEvent } from '@cohort/runtime';

/** The schema of the event tables (the journal's). */
const SCHEMA = 'cohort_durable';
/** Each run's events, numbered from 1 in the order their writes committed. */
export const EVENTS_TABLE = `${SCHEMA}.events`;
/** Each run's last event number: the row its writers lock, so that numbers follow commit order. */
const HEADS_TABLE = `${SCHEMA}.event_heads`;

/** The event tables (made with the journal's, under its lock). */
export const CREATE_EVENT_TABLES = [
  `CREATE TABLE IF NOT EXISTS ${HEADS_TABLE} (run text PRIMARY KEY, seq bigint NOT NULL)`,
  `CREATE TABLE IF NOT EXISTS ${EVENTS_TABLE} (
    run text NOT NULL, seq bigint NOT NULL, source text NOT NULL, n integer NOT NULL, event jsonb NOT NULL,
    at timestamptz NOT NULL DEFAULT now(), PRIMARY KEY (run, seq), UNIQUE (source, n))`,
];

/**
 * One statement: the run's head row is bumped (and locked until commit) and the batch numbered
 * after it, so a reader that has seen number `k` has seen every number below `k` that will ever
 * commit. `source` and `n` name each event of one writer: a write repeated after a lost
 * connection adds nothing twice (it only leaves a gap in the numbers).
 */
const INSERT = `WITH batch AS (SELECT value, ord FROM jsonb_array_elements($3::jsonb) WITH ORDINALITY AS e(value, ord)),
  head AS (INSERT INTO ${HEADS_TABLE} (run, seq) VALUES ($1, $4) ON CONFLICT (run) DO UPDATE SET seq = ${HEADS_TABLE}.seq + $4 RETURNING seq)
  INSERT INTO ${EVENTS_TABLE} (run, seq, source, n, event)
  SELECT $1, head.seq - $4 + batch.ord, $2, $5 + batch.ord, batch.value FROM head, batch
  ON CONFLICT (source, n) DO NOTHING`;

/** Where a unit's placed events go. */
export interface EventSink {
  /** Appends `events` to run `run`'s log: events `from + 1 …` of writer `source`. */
  write(run: string, source: string, from: number, events: readonly PlacedEvent[]): Promise<void>;
}

/** What the log asks of the database (the journal's pool). */
export interface Queryable {
  query<R extends object>(text: string, params: unknown[]): Promise<{ rows: R[] }>;
}

/** The event log of the system database. */
export class EventLog implements EventSink {
  constructor(private readonly db: Queryable) {}

  async write(run: string, source: string, from: number, events: readonly PlacedEvent[]): Promise<void> {
    if (events.length === 0) return;
    await this.db.query(INSERT, [run, source, JSON.stringify(events), events.length, from]);
  }
}

/**
 * One start of one unit's events, on their way to the log: gathered and written every
 * `flushMs` and at the end, one write at a time, so a unit costs a few statements however many
 * events it has. A unit that ends has all its events written before its result is recorded; a
 * unit cut off by a crash loses at most its last `flushMs` of them, and runs again. A write
 * that fails (after the journal's retries) is dropped: the log serves watchers, the run does
 * not depend on it.
 */
export class UnitEvents {
  private readonly source = randomUUID();
  private pending: PlacedEvent[] = [];
  private written = 0;
  private writing: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly sink: EventSink,
    private readonly run: string,
    private readonly flushMs = 100,
    private readonly onError: (err: unknown) => void = () => undefined,
  ) {}

  push(event: PlacedEvent): void {
    this.pending.push(event);
    if (!this.timer) {
      this.timer = setTimeout(() => void this.flush(), this.flushMs);
      this.timer.unref();
    }
  }

  /** Writes what is gathered; resolves when every write so far is done. */
  flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const batch = this.pending;
    this.pending = [];
    if (batch.length > 0) {
      const from = this.written;
      this.written += batch.length;
      this.writing = this.writing.then(() => this.sink.write(this.run, this.source, from, batch)).catch(this.onError);
    }
    return this.writing;
  }
}
