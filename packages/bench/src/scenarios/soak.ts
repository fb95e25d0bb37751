/**
 * Scenario 8, soak: a long-running service's memory. One runtime runs root sessions one after
 * another, each TAGging one skill (the book does not grow), for as long as a service runs a busy
 * day; the heap is measured after a full garbage collection every `every` sessions, and the row
 * is the slope of those samples (least squares), per 10,000 sessions. What a runtime keeps per
 * session — beyond what is not durable yet, or a bounded window — shows as a slope; a runtime
 * that keeps nothing shows noise around zero. Rows: the memory store with a bounded history
 * (`historyLimit`), root sessions alone and root sessions that each spawn the child that tags;
 * and the file store (durable: the history is on disk; fewer sessions, each waits for an fsync).
 */
import { join } from 'node:path';
import { createRuntime } from '@cohort/runtime';
import type { Runtime, Session } from '@cohort/runtime';
import { MemoryStore } from '@cohort/store';
import type { Store } from '@cohort/store';
import { buildBook, randomId } from '../books.ts';
import { openFileStore, withTempDir } from '../files.ts';
import { collectGarbage, random } from '../measure.ts';
import type { BenchOptions, BenchRow, Scenario, ScenarioReport } from '../Scenario.ts';
import { absoluteRow, byMode } from '../Scenario.ts';

const BOOK = 1_000;
/** Sessions before the first sample: caches, JIT and the store's buffers settle first. */
const WARMUP = 5_000;

/** The least-squares slope of `ys` over `xs`. */
export function slope(xs: readonly number[], ys: readonly number[]): number {
  const n = xs.length;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let num = 0;
  let den = 0;
  for (let i = 0; i < n; i++) {
    num += ((xs[i] ?? 0) - mx) * ((ys[i] ?? 0) - my);
    den += ((xs[i] ?? 0) - mx) ** 2;
  }
  return den === 0 ? 0 : num / den;
}

/** What each root session does: TAG one skill itself, or spawn a child that does. */
type Shape = 'root' | 'nested';

function body(shape: Shape, skill: string): (s: Session) => Promise<unknown> {
  const tag = (s: Session) => s.tools.tag_skill({ skill_id: skill, tag: 'helpful' });
  return shape === 'root' ? tag : (s) => s.spawn(tag);
}

/** Runs `sessions` root sessions one after another; the heap after GC every `every` of them (after the warm-up). */
async function soak(rt: Runtime, shape: Shape, sessions: number, every: number): Promise<{ at: number[]; heapMb: number[] }> {
  const rand = random(70);
  const at: number[] = [];
  const heapMb: number[] = [];
  for (let i = 1; i <= WARMUP + sessions; i++) {
    const outcome = await rt.run(body(shape, randomId(BOOK, rand)));
    if (outcome.status !== 'committed') throw new Error(`soak: session ${i} failed: ${outcome.failure.message}`);
    if (i > WARMUP && (i - WARMUP) % every === 0) {
      collectGarbage();
      collectGarbage();
      at.push(i - WARMUP);
      heapMb.push(process.memoryUsage().heapUsed / 2 ** 20);
    }
  }
  if (rt.book.size !== BOOK) throw new Error('soak: the book grew');
  return { at, heapMb };
}

interface SoakRow {
  readonly id: string;
  readonly what: string;
  readonly shape: Shape;
  readonly sessions: number;
  readonly every: number;
}

async function row(spec: SoakRow, store: Store, log: (line: string) => void): Promise<BenchRow> {
  const { id, what, shape, sessions, every } = spec;
  const rt = createRuntime({ store });
  let defects = 0;
  rt.events$.subscribe((e) => (defects += e.type === 'runtime.defect' ? 1 : 0));
  log(`8 soak: ${sessions} sequential sessions, ${what}`);
  const { at, heapMb } = await soak(rt, shape, sessions, every);
  await rt.close();
  if (defects > 0) throw new Error(`soak: ${defects} runtime defects`);
  const perTenThousandKb = slope(at, heapMb) * 10_000 * 1024;
  const first = heapMb[0] ?? 0;
  const last = heapMb[heapMb.length - 1] ?? 0;
  return absoluteRow(
    id,
    `soak: ${sessions / 1000}k sequential TAG sessions, ${what}`,
    { value: perTenThousandKb, unit: 'KB', label: 'heap after GC, per 10k sessions' },
    { kind: 'at-most', value: 100, text: '≤ 100 KB / 10k' },
    {
      sessions,
      every,
      samples: heapMb.length,
      firstHeapMb: Number(first.toFixed(1)),
      lastHeapMb: Number(last.toFixed(1)),
      heapMb: heapMb.map((h) => Number(h.toFixed(2))),
    },
  );
}

/** Scenario 8. */
export const soakScenario: Scenario = {
  id: '8',
  name: 'soak',
  // about ten minutes at full size
  onlyWhenAsked: true,
  async run(options: BenchOptions): Promise<ScenarioReport> {
    const sessions = byMode(options.mode, { full: 200_000, quick: 30_000, smoke: 300 });
    const every = byMode(options.mode, { full: 10_000, quick: 3_000, smoke: 100 });
    const onDisk = byMode(options.mode, { full: 30_000, quick: 6_000, smoke: 300 });
    const book = buildBook(BOOK);
    const bounded = () => new MemoryStore(book, { historyLimit: 1_000 });
    const rows = [
      await row({ id: '8a', what: 'memory store (historyLimit 1,000)', shape: 'root', sessions, every }, bounded(), options.log),
      await row(
        { id: '8b', what: 'each spawning the child that tags, memory store', shape: 'nested', sessions, every },
        bounded(),
        options.log,
      ),
    ];
    rows.push(
      await withTempDir('soak', async (dir) => {
        const store = await openFileStore(join(dir, 'skillbook.json'), { initialBook: book, idleCheckpointMs: 0 }, 'soak');
        return row({ id: '8c', what: 'file store', shape: 'root', sessions: onDisk, every: every / 2 }, store, options.log);
      }),
    );
    return { rows };
  },
};
