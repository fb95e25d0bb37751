import { describe, expect, it } from 'vitest';
import { Database } from '../src/internal/Database.ts';
import { resolvePostgresOptions } from '../src/PostgresStoreOptions.ts';
import { PG_URL } from './utils/pgSchema.ts';

describe('Database', () => {
  it('a connection that breaks just as it is handed out (a restarting server) does not reach the process as an unhandled error', async () => {
    const options = resolvePostgresOptions({ url: PG_URL, poolSize: 1 });
    if (typeof options === 'string') throw new Error(options);
    const db = new Database(options);
    const uncaught: unknown[] = [];
    const onUncaught = (err: unknown) => void uncaught.push(err);
    process.prependListener('uncaughtException', onUncaught);
    // the server's message that ends the connection arrives after the pool handed the connection
    // out and before `with` took it (one read from the socket can hold both)
    db.pool.once('acquire', (client) => queueMicrotask(() => client.emit('error', new Error('terminating connection'))));
    try {
      const result = await db.with(async (client) => (await client.query('SELECT 1 AS one').catch(() => null))?.rows);
      expect(result === null || Array.isArray(result)).toBe(true);
      await new Promise((r) => setImmediate(r));
      expect(uncaught).toEqual([]);
    } finally {
      process.removeListener('uncaughtException', onUncaught);
      await db.pool.end();
    }
  });
});
