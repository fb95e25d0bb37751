import pg from 'pg';
import type { PoolClient } from 'pg';
import type { ResolvedPostgresOptions } from '../PostgresStoreOptions.ts';

/**
 * The store's connection pool. A connection that breaks while it is checked out (a killed
 * backend, a server restart) is reported to the query that used it and then thrown away,
 * never returned to the pool; one that breaks while idle is dropped by the pool. Neither
 * reaches the process as an unhandled `error` event. A new connection is made for the next
 * use, so the store reconnects by itself once the server is back.
 */
export class Database {
  readonly pool: pg.Pool;

  constructor(private readonly options: ResolvedPostgresOptions) {
    this.pool = new pg.Pool({
      connectionString: options.url,
      max: options.poolSize,
      connectionTimeoutMillis: options.connectTimeoutMs,
      // a transaction whose client vanished must not hold the book's row lock for long
      options: `-c idle_in_transaction_session_timeout=${Math.max(options.statementTimeoutMs, 1_000)} -c statement_timeout=${options.statementTimeoutMs}`,
      application_name: `cohort ${options.writerId}`,
      keepAlive: true,
    });
    // an idle connection that broke: the pool drops it; nothing to do here
    this.pool.on('error', () => undefined);
    // a connection is without a listener from the moment the pool hands it out until `with`
    // takes it (after a microtask); a server's message ending it can arrive in that window (in the
    // same read as the connection's readiness, as a restarting server sends them): without one
    // listener for its whole life, that error would end the process
    this.pool.on('connect', (client) => client.on('error', () => undefined));
  }

  /** A new (unpooled) client with the same settings, for `LISTEN`. */
  client(): pg.Client {
    return new pg.Client({
      connectionString: this.options.url,
      connectionTimeoutMillis: this.options.connectTimeoutMs,
      application_name: `cohort ${this.options.writerId} listen`,
      keepAlive: true,
    });
  }

  /**
   * Runs `body` on one connection. A connection whose use threw is destroyed rather than
   * returned (it may be broken, or inside a transaction that was not rolled back).
   */
  async with<T>(body: (client: PoolClient) => Promise<T>): Promise<T> {
    const client = await this.pool.connect();
    let broken: Error | null = null;
    const onError = (error: Error): void => {
      broken = error;
    };
    client.on('error', onError);
    try {
      const result = await body(client);
      client.removeListener('error', onError);
      client.release(broken ?? undefined);
      return result;
    } catch (error) {
      client.removeListener('error', onError);
      // the pool keeps listening to a destroyed client: a late error on it is swallowed there
      client.release(error instanceof Error ? error : new Error(String(error)));
      throw error;
    }
  }

  /** Runs `body` in a transaction (BEGIN … COMMIT; ROLLBACK when it throws). */
  async transaction<T>(body: (client: PoolClient) => Promise<T>): Promise<T> {
    return this.with(async (client) => {
      await client.query('BEGIN');
      try {
        const result = await body(client);
        await client.query('COMMIT');
        return result;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw error;
      }
    });
  }

  /** Closes every connection of the pool. */
  async end(): Promise<void> {
    await this.pool.end().catch(() => undefined);
  }
}

/** A thrown value as a message. */
export function messageOf(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    return typeof code === 'string' && code.length > 0 && !error.message.includes(code) ? `${error.message} (${code})` : error.message;
  }
  return String(error);
}
