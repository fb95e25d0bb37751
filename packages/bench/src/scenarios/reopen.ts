/**
 * Scenario 5, reopen: a file store whose document holds n skills and whose journal holds n
 * merged commits past it (one op each) is opened again: read and check the document, the base,
 * the ledger and the journal (checksums, hash chain), and replay the journal. Absolute target.
 */
import { join } from 'node:path';
import { formatAceTimestamp } from '@cohort/skillbook';
import type { AppendResult } from '@cohort/store';
import { buildBook, randomId } from '../books.ts';
import { openFileStore, withTempDir } from '../files.ts';
import { collectGarbage, median, now, random } from '../measure.ts';
import type { BenchOptions, Scenario, ScenarioReport } from '../Scenario.ts';
import { absoluteRow, byMode } from '../Scenario.ts';

/** Appends in flight at once while filling the journal (they share fsyncs). */
const IN_FLIGHT = 2_000;

/** Makes the store: the document with `skills` skills, then `entries` one-op commits in its journal. */
async function makeStore(path: string, skills: number, entries: number): Promise<number> {
  const book = buildBook(skills);
  // no checkpoint may fold the journal into the document: the journal is what is measured
  const store = await openFileStore(path, { initialBook: book, checkpointEvery: entries + 1, idleCheckpointMs: 0 }, 'reopen');
  const rand = random(50);
  const at = formatAceTimestamp(Date.UTC(2026, 0, 1));
  let revision = book.revision;
  for (let start = 0; start < entries; start += IN_FLIGHT) {
    const pending: Promise<AppendResult>[] = [];
    for (let i = start; i < Math.min(entries, start + IN_FLIGHT); i++) {
      const skill = book.get(randomId(skills, rand));
      if (!skill) throw new Error('reopen: the book lacks a skill');
      const op = { type: 'TAG' as const, section: skill.section, skill_id: skill.id, metadata: { delta: 1 }, at };
      pending.push(
        store.append({
          expectedRevision: revision++,
          sessionId: `s${i}`,
          path: [`s${i}`],
          entries: [{ sessionId: `s${i}`, path: [`s${i}`], ops: [op], at: i }],
          at: i,
        }),
      );
    }
    for (const result of await Promise.all(pending)) if (!result.ok) throw new Error(`reopen: an append failed: ${result.error.message}`);
  }
  // the store is left open, not closed: closing would fold the journal into the document
  return revision;
}

/** Scenario 5. */
export const reopen: Scenario = {
  id: '5',
  name: 'reopen',
  async run(options: BenchOptions): Promise<ScenarioReport> {
    const n = byMode(options.mode, { full: 100_000, quick: 10_000, smoke: 200 });
    const reps = byMode(options.mode, { full: 3, quick: 2, smoke: 1 });
    return withTempDir('reopen', async (dir) => {
      const path = join(dir, 'skillbook.json');
      options.log(`5 reopen: making a store of ${n} skills and ${n} journal entries`);
      const revision = await makeStore(path, n, n);
      const samples: number[] = [];
      for (let i = 0; i < reps + 1; i++) {
        collectGarbage();
        const t0 = now();
        const store = await openFileStore(path, { idleCheckpointMs: 0 }, 'reopen');
        const ms = now() - t0;
        if (store.book.size !== n || store.book.revision !== revision) throw new Error('reopen: the reopened book is not the one written');
        if (i > 0) samples.push(ms);
      }
      const k = `${n / 1000}k`;
      return {
        rows: [
          absoluteRow(
            '5',
            `reopen ${k} skills + ${k} journal entries`,
            { value: median(samples) / 1000, unit: 's', samples: samples.map((ms) => ms / 1000) },
            { kind: 'at-most', value: 2, text: '< 2 s' },
            { skills: n, entries: n, reps },
          ),
        ],
      };
    });
  },
};
