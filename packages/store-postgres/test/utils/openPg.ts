import { describeOpenError } from '@cohort/store';
import { PostgresStore } from '@cohort/store-postgres';
import type { PostgresStoreOptions } from '@cohort/store-postgres';
import { PG_URL, dropSchema, freshSchema, sql } from './pgSchema.ts';

/** The stores and schemas a test opened, closed and dropped by {@link PgStores.cleanup}. */
export class PgStores {
  private readonly stores: PostgresStore[] = [];
  private readonly schemas = new Set<string>();

  /** A fresh schema name, dropped at cleanup. */
  schema(prefix = 't'): string {
    const name = freshSchema(prefix);
    this.schemas.add(name);
    return name;
  }

  /** Opens a store (throws when it does not open: a test bug). */
  async open(options: Partial<PostgresStoreOptions> & { readonly schema: string }): Promise<PostgresStore> {
    this.schemas.add(options.schema);
    const opened = await PostgresStore.open({ url: PG_URL, ...options });
    if (!opened.ok) throw new Error(describeOpenError(opened.error));
    this.stores.push(opened.store);
    return opened.store;
  }

  async cleanup(): Promise<void> {
    for (const s of this.stores.splice(0)) await s.close();
    for (const schema of this.schemas) await dropSchema(schema);
    this.schemas.clear();
  }
}

/** The backends of writer `writerId` (its pool's connections) as pg_stat_activity shows them. */
export async function backendsOf(writerId: string): Promise<{ pid: number; state: string; query: string; wait: string | null }[]> {
  return sql<{ pid: number; state: string; query: string; wait: string | null }>(
    'SELECT pid, state, query, wait_event_type AS wait FROM pg_stat_activity WHERE application_name = $1',
    [`cohort ${writerId}`],
  );
}

/** Polls `probe` every 20 ms until it returns a value (or throws after `ms`). */
export async function until<T>(probe: () => Promise<T | null | undefined | false>, ms = 10_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > end) throw new Error('until: timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}
