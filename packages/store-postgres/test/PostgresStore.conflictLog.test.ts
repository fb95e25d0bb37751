import { afterEach, describe, expect, it } from 'vitest';
import { createRuntime } from '@cohort/runtime';
import { Skillbook } from '@cohort/skillbook';
import { addOp, makeCommit } from '@cohort/store/testing';
import { inspectPostgres } from '../src/index.ts';
import { PgStores } from './utils/openPg.ts';
import { PG_URL, sql } from './utils/pgSchema.ts';

const HOT = 'context-00001';
const stores = new PgStores();
afterEach(() => stores.cleanup());

/** Two writers on one schema, each a runtime whose 20 root sessions update the same skill at once. */
async function twoWritersUpdatingOneSkill(schema: string): Promise<{ committed: number; conflicts: number }> {
  const seeded = makeCommit(Skillbook.empty(), [addOp('the hot skill')]).book;
  await (await stores.open({ schema, initialBook: seeded, listen: false })).close();
  const statuses = await Promise.all(
    ['a', 'b'].map(async (writerId) => {
      const rt = createRuntime({ store: await stores.open({ schema, writerId }) });
      const outcomes = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          rt.run(async (s) => s.tools.update_skill({ skill_id: HOT, insight: `${writerId} ${i} was here` })),
        ),
      );
      await rt.close(); // closes the store too: everything it was asked to log is written
      return outcomes.map((o) => (o.status === 'failed' ? o.failure.kind : o.status));
    }),
  );
  const all = statuses.flat();
  return { committed: all.filter((s) => s === 'committed').length, conflicts: all.filter((s) => s === 'conflict').length };
}

describe('PostgresStore conflict log', () => {
  it('log - every root commit refused for its conflicts has a row, also those its own runtime refused before the store saw them', async () => {
    const schema = stores.schema('clog');
    const { committed, conflicts } = await twoWritersUpdatingOneSkill(schema);
    expect(committed + conflicts).toBe(40);
    expect(conflicts).toBeGreaterThan(20);
    const rows = await sql<{ writer_id: string; session_id: string; body: { conflicts: unknown[]; message: string } }>(
      `SELECT writer_id, session_id, body FROM "${schema}".log WHERE kind = 'conflict' ORDER BY id`,
    );
    expect(rows).toHaveLength(conflicts);
    expect(new Set(rows.map((r) => r.session_id)).size).toBe(conflicts);
    for (const r of rows) expect(r.body.conflicts.length, r.body.message).toBeGreaterThan(0);
    const report = await inspectPostgres({ url: PG_URL, schema });
    expect(report.refusedCommits).toBe(conflicts);
  });
});
