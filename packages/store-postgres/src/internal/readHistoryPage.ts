import { StoreNoticeSchema } from '@cohort/store';
import type { HistoryOptions, HistoryPage, StoreNotice } from '@cohort/store';
import { DEFAULT_HISTORY_LIMIT } from '@cohort/store/adapter';
import { messageOf } from './Database.ts';
import { inSchema } from './migrations.ts';
import { HISTORY_SQL, commitOfRow } from './rows.ts';
import type { CommitRow } from './rows.ts';
import type { StoreState } from './StoreState.ts';

/** The commits past `after` (at most `limit`), from the commits table with their audit blocks, in revision order. */
export async function readHistoryPage(s: StoreState, options: HistoryOptions): Promise<HistoryPage> {
  const after = options.after ?? -1;
  const limit = options.limit ?? DEFAULT_HISTORY_LIMIT;
  if (!Number.isSafeInteger(after) || !Number.isSafeInteger(limit) || limit < 1) {
    return {
      ok: false,
      error: {
        code: 'invalid_request',
        message: `history: after must be an integer and limit a positive integer (got ${String(options.after)}, ${String(options.limit)})`,
      },
    };
  }
  try {
    const r = await s.db.with((client) => client.query<CommitRow>(inSchema(HISTORY_SQL, s.options.schema), [after, limit + 1]));
    const commits = r.rows.slice(0, limit).map(commitOfRow);
    const more = r.rows.length > limit;
    return { ok: true, commits, next: more ? (commits[commits.length - 1]?.revision ?? null) : null };
  } catch (error) {
    return { ok: false, error: { code: 'io', message: `history: the database could not be read: ${messageOf(error)}`, cause: error } };
  }
}

/** The notices in the store's log table, oldest first (a record this version does not know as a notice is left out). */
export async function readLoggedNotices(s: StoreState): Promise<StoreNotice[]> {
  const r = await s.db.with((c) =>
    c.query<{ body: unknown }>(inSchema("SELECT body FROM {schema}.log WHERE kind = 'notice' ORDER BY id", s.options.schema)),
  );
  return r.rows.flatMap((row) => {
    const parsed = StoreNoticeSchema.safeParse(row.body);
    return parsed.success ? [parsed.data] : [];
  });
}

/** How many `conflict` rows the store's log table has: the commits refused for their conflicts. */
export async function countRefusedCommits(s: StoreState): Promise<number> {
  const r = await s.db.with((c) =>
    c.query<{ n: string }>(inSchema("SELECT count(*) AS n FROM {schema}.log WHERE kind = 'conflict'", s.options.schema)),
  );
  return Number(r.rows[0]?.n ?? 0);
}
