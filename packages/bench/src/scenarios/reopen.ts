/**
 * Scenario 5, reopen: a file store whose document holds n skills and whose journal holds n
 * merged commits past it (one op each) is opened again: read and check the document, the base,
 * the ledger and the journal (checksums, hash chain), and replay the journal. Against the floor
 * of reading the same files and `JSON.parse`-ing them (each line of the line-based ones), timed
 * in turn with it, so that the ratio holds whatever else the machine is doing.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { formatAceTimestamp } from '@cohort/skillbook';
import type { AppendResult } from '@cohort/store';
import { buildBook, randomId } from '../books.ts';
import { openFileStore, withTempDir } from '../files.ts';
import { collectGarbage, median, now, random } from '../measure.ts';
import type { BenchOptions, Scenario, ScenarioReport } from '../Scenario.ts';
import { byMode, ratioRow } from '../Scenario.ts';

/** At most three times what reading and parsing the bytes costs: checking and replaying them is the rest. */
const TARGET = { kind: 'at-most', value: 3, text: '≤ 3×' } as const;

/** Appends in flight at once while filling the journal (they share fsyncs). */
const IN_FLIGHT = 2_000;

/** The floor: every file of the store in `dir` read and parsed as JSON, the line-based ones line by line. */
function readAndParse(dir: string): number {
  const t0 = now();
  for (const name of readdirSync(dir)) {
    if (name.endsWith('.lock')) continue;
    const text = readFileSync(join(dir, name), 'utf8');
    // the document, its base and the ledger are indented JSON; the journal and snapshots are a record per line
    if (text.startsWith('{\n')) JSON.parse(text);
    else for (const line of text.split('\n')) if (line.length > 0) JSON.parse(line);
  }
  return now() - t0;
}

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
      const floor: number[] = [];
      for (let i = 0; i < reps + 1; i++) {
        collectGarbage();
        const t0 = now();
        const store = await openFileStore(path, { idleCheckpointMs: 0 }, 'reopen');
        const ms = now() - t0;
        if (store.book.size !== n || store.book.revision !== revision) throw new Error('reopen: the reopened book is not the one written');
        collectGarbage();
        const parsed = readAndParse(dir);
        if (i > 0) samples.push(ms);
        if (i > 0) floor.push(parsed);
      }
      const k = `${n / 1000}k`;
      return {
        rows: [
          ratioRow(
            '5',
            `reopen ${k} skills + ${k} journal entries, vs reading and parsing the same files`,
            { value: median(samples) / 1000, unit: 's', samples: samples.map((ms) => ms / 1000) },
            { value: median(floor) / 1000, unit: 's', label: 'read + JSON.parse', samples: floor.map((ms) => ms / 1000) },
            median(samples) / median(floor),
            TARGET,
            { skills: n, entries: n, reps },
          ),
        ],
      };
    });
  },
};
