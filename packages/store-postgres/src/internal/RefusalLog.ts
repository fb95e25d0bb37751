import type { RefusedCommit } from '@cohort/store';
import { messageOf } from './Database.ts';
import { inSchema } from './migrations.ts';
import type { StoreState } from './StoreState.ts';

/** Runs a task in the writer's order (so `close()`, which waits for the writer, waits for it too). */
type RunInOrder = (task: () => Promise<void>) => Promise<void>;

const INSERT = `
  INSERT INTO {schema}.log (kind, type, revision, session_id, writer_id, body)
  SELECT 'conflict', 'commit.refused', NULL, r.session_id, $2::text, r.body
  FROM json_to_recordset($1::json) AS r(session_id text, body json)`;

/**
 * The `conflict` rows of the commits a runtime refused before they reached the store (their
 * conflicts were with its own merges still on their way), written as the store's own
 * refusals are: the log then holds every refused commit. Refusals that arrive together go in
 * one statement, after the writer's work queued before them. Best effort, as the log is: a
 * database that cannot be written loses them, and says so as a `store.io_failed` notice.
 */
export class RefusalLog {
  private pending: RefusedCommit[] = [];

  constructor(
    private readonly s: StoreState,
    private readonly run: RunInOrder,
  ) {}

  /** Queues the refusal for the next write. */
  add(refused: RefusedCommit): void {
    this.pending.push(refused);
    if (this.pending.length === 1) void this.run(() => this.flush());
  }

  private async flush(): Promise<void> {
    const batch = this.pending.splice(0);
    const rows = batch.map((r) => ({
      session_id: r.sessionId,
      body: { sessionId: r.sessionId, path: r.path, expectedRevision: r.expectedRevision, message: r.message, conflicts: r.conflicts },
    }));
    try {
      await this.s.db.with((client) =>
        client.query(inSchema(INSERT, this.s.options.schema), [JSON.stringify(rows), this.s.options.writerId]),
      );
    } catch (error) {
      this.s.reportIo('log', messageOf(error), 0, false);
    }
  }
}
