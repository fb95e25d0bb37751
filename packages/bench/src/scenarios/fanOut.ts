/**
 * Scenario 2, fan-out against the peers: W(n, 10) — a parent fans out n children in parallel,
 * each makes 10 inserts into its own isolated view, its writes are merged, one child in ten
 * throws and its writes must not appear — at two sizes and on a depth-3 tree, run by Cohort,
 * LangGraph.js, Effect and the async floor (`Promise.all` with a local buffer per child), side
 * by side (see `peers/`). For information too, two parts of Cohort's cost against the same
 * floor: the session protocol alone (xstate actors and their events, nothing else) and the
 * data path alone (drafts, validated writes and merges, no actors).
 */
import { dataPathAlone } from '../baselines/dataPath.ts';
import { sessionProtocol } from '../baselines/sessionProtocol.ts';
import { interleave, timeIt } from '../measure.ts';
import { measurePeers } from '../peers/measurePeers.ts';
import type { PeerLine, PeerTable } from '../peers/PeerTable.ts';
import { ranked, worstVerdict } from '../peers/PeerTable.ts';
import { asyncFloor } from '../peers/systems/asyncFloor.ts';
import type { Workload } from '../peers/Workload.ts';
import { flatWorkload, treeWorkload } from '../peers/Workload.ts';
import type { BenchOptions, BenchRow, Figure, Scenario, ScenarioReport, Target } from '../Scenario.ts';
import { absoluteRow, byMode, formatNumber, medianFigure, ratioRow, unrankedRow } from '../Scenario.ts';

const FASTER_2X: Target = { kind: 'at-least', value: 2, text: '≥ 2× faster' };

function lineOf(table: PeerTable, key: PeerLine['key']): PeerLine {
  const line = table.lines.find((l) => l.key === key);
  if (!line) throw new Error(`the peer table has no line for ${key}`);
  return line;
}

function timeOf(line: PeerLine, w: Workload): Figure {
  const cell = line.cells[w.id];
  if (!cell) throw new Error(`${line.name} has no time for ${w.label}`);
  if (line.key === 'cohort')
    return { value: cell.time.value, unit: cell.time.unit, ...(cell.time.samples ? { samples: cell.time.samples } : {}) };
  return { ...cell.time, label: `${line.name}${cell.capped ? ', capped' : ''}` };
}

/** Why a comparison between `lines` cannot be ranked (one of them failed its check), or null. */
function unrankedReason(...lines: readonly PeerLine[]): string | null {
  const failed = lines.find((l) => !ranked(l));
  if (!failed) return null;
  const v = worstVerdict(failed);
  return `${failed.name} kept ${formatNumber(v?.crashedKept ?? 0)} crashed writes, ${formatNumber(v?.survived ?? 0)} of ${formatNumber(v?.expected ?? 0)} survived`;
}

/** A row of Cohort against `peer` on `w`: `ratio` is checked against `target` unless a check failed. */
function versus(
  id: string,
  scenario: string,
  table: PeerTable,
  peer: PeerLine['key'],
  w: Workload,
  target: Target,
  ratio: (c: number, p: number) => number,
): BenchRow {
  const cohort = lineOf(table, 'cohort');
  const other = lineOf(table, peer);
  const c = timeOf(cohort, w);
  const p = timeOf(other, w);
  const reason = unrankedReason(cohort, other);
  return reason === null ? ratioRow(id, scenario, c, p, ratio(c.value, p.value), target) : unrankedRow(id, scenario, c, p, target, reason);
}

/**
 * Rows 2f and 2g: the session protocol alone and Cohort's data path alone (drafts, validated
 * writes, merges: no actors) against the floor, at `n` children, alternated run by run. What
 * each costs on its own bounds what a fan-out of xstate sessions that validate every write can
 * cost: about their sum, before any runtime bookkeeping.
 */
async function partRows(n: number, warmup: number, reps: number): Promise<BenchRow[]> {
  const w = flatWorkload('parts', n);
  const [protocol = [], data = [], floor = []] = await interleave(
    [() => timeIt(() => sessionProtocol(n)), () => dataPathAlone(w), async () => (await asyncFloor.run(w)).ms],
    { warmup, reps },
  );
  const f = medianFigure(floor, 'ms', 'async floor');
  const p = medianFigure(protocol, 'ms', 'xstate session protocol');
  const d = medianFigure(data, 'ms', 'drafts, writes, merges');
  const size = n.toLocaleString('en-US');
  const info = { kind: 'info', text: 'info' } as const;
  return [
    ratioRow('2f', `fan-out ${size}: the session protocol alone, vs the async floor`, p, f, p.value / f.value, info),
    ratioRow('2g', `fan-out ${size} × 10: the data path alone (no actors), vs the async floor`, d, f, d.value / f.value, info),
  ];
}

/** Scenario 2. */
export const fanOut: Scenario = {
  id: '2',
  name: 'fan-out against peers',
  async run(options: BenchOptions): Promise<ScenarioReport> {
    const size = byMode(options.mode, {
      full: { small: 1_000, large: 10_000, tree: 3, capMs: 30_000, rounds: 5, warmup: 1, reps: 1 },
      quick: { small: 1_000, large: 2_000, tree: 2, capMs: 10_000, rounds: 1, warmup: 1, reps: 2 },
      smoke: { small: 20, large: 40, tree: 2, capMs: 10_000, rounds: 1, warmup: 0, reps: 1 },
    });
    const small = flatWorkload('small', size.small);
    const large = flatWorkload('large', size.large);
    const tree = treeWorkload('tree', 10, size.tree);
    options.log(`2 fan-out: W(n, 10) at n = ${size.small} and ${size.large} and on a ${tree.label}, Cohort and its peers side by side`);
    const table = await measurePeers(options, {
      workloads: [small, large, tree],
      memory: large,
      slow: ['langgraph'],
      capMs: size.capMs,
      rounds: size.rounds,
      warmup: size.warmup,
      reps: size.reps,
    });
    const cohort = lineOf(table, 'cohort');
    const floor = lineOf(table, 'floor');
    const c = timeOf(cohort, large);
    const n = size.large.toLocaleString('en-US');
    const rss: Figure = { value: cohort.memory.increaseMb ?? Number.NaN, unit: 'MB', label: 'over its baseline' };
    return {
      rows: [
        versus(
          '2a',
          `fan-out ${n} × 10, vs the async floor`,
          table,
          'floor',
          large,
          // a ceiling not to cross, no longer a target to reach
          { kind: 'at-most', value: 22, text: 'ceiling 22×' },
          (x, y) => x / y,
        ),
        absoluteRow(
          '2b',
          `fan-out ${n} × 10 wall time`,
          { value: c.value / 1000, unit: 's' },
          { kind: 'at-most', value: 3, text: '< 3 s' },
        ),
        absoluteRow(
          '2c',
          `fan-out ${n} × 10 peak RSS increase (own process)`,
          rss,
          { kind: 'at-most', value: 250, text: 'ceiling 250 MB' },
          { floorMb: floor.memory.increaseMb },
        ),
        versus(
          '2d',
          `fan-out ${size.small.toLocaleString('en-US')} × 10, vs LangGraph.js`,
          table,
          'langgraph',
          small,
          FASTER_2X,
          (x, y) => y / x,
        ),
        versus('2e', `${tree.label}, vs LangGraph.js`, table, 'langgraph', tree, FASTER_2X, (x, y) => y / x),
        ...(await partRows(size.large, size.warmup, size.rounds * size.reps)),
      ],
      peers: table,
    };
  },
};
