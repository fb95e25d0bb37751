/**
 * The results tables of docs/performance.md, written from a run's `bench-results.json`: each
 * table sits between two marker comments, and only what is between them is rewritten.
 */
import { z } from 'zod';
import { formatMarkdown, formatPeersMarkdown, PEER_KEYS } from '../src/index.ts';
import type { BenchResults, BenchRow, PeerTable } from '../src/index.ts';
import { formatNumber } from '../src/Scenario.ts';

/** The generated regions, by name: `<!-- bench:NAME … -->` … `<!-- /bench:NAME -->`. */
export type RegionName = 'results' | 'peers' | 'soak';

/** Why the docs could not be written; the document is left as it was. */
export interface RenderError {
  readonly code: 'not_results' | 'smoke_run' | 'missing_region' | 'nothing_to_write';
  readonly message: string;
}

/** The new text of the document and the regions it rewrote, or why none could be. */
export type RenderResult =
  | { readonly ok: true; readonly text: string; readonly updated: readonly RegionName[] }
  | { readonly ok: false; readonly error: RenderError };

const figure = z.object({ value: z.number(), unit: z.string(), label: z.string().optional() }).passthrough();
const verdict = z.object({ expected: z.number(), survived: z.number(), crashedKept: z.number(), ok: z.boolean() });
const peers = z.object({
  workloads: z.array(z.object({ id: z.string(), label: z.string() }).passthrough()),
  memoryWorkload: z.string(),
  capMs: z.number(),
  lines: z.array(
    z.object({
      key: z.enum(PEER_KEYS),
      name: z.string(),
      cells: z.record(z.string(), z.object({ time: figure, capped: z.boolean(), verdict: verdict.nullable() })),
      memory: z.object({ increaseMb: z.number().nullable(), capped: z.boolean(), verdict: verdict.nullable() }),
    }),
  ),
});
/** What the renderer reads of `bench-results.json` (the file holds more: samples, settings). */
const ResultsSchema = z
  .object({
    format: z.literal('cohort-bench/1'),
    mode: z.enum(['full', 'quick', 'smoke']),
    seconds: z.number(),
    machine: z.object({
      node: z.string(),
      platform: z.string(),
      cpus: z.number(),
      cpuModel: z.string(),
      memoryGb: z.number(),
      loadAverage: z.number(),
    }),
    rows: z.array(
      z
        .object({
          id: z.string(),
          scenario: z.string(),
          cohort: figure,
          baseline: figure.nullable(),
          ratio: z.number().nullable(),
          ratioText: z.string(),
          target: z.object({ kind: z.enum(['at-most', 'at-least', 'info']), text: z.string() }).passthrough(),
          met: z.boolean().nullable(),
          unranked: z.string().optional(),
          detail: z.record(z.string(), z.unknown()).optional(),
        })
        .passthrough(),
    ),
    peers: peers.nullable(),
  })
  .passthrough();

/** Reads `text` as a bench results file, or says in one line why it is not one. */
export function parseResults(text: string, name: string): { ok: true; results: BenchResults } | { ok: false; error: RenderError } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (cause) {
    return { ok: false, error: { code: 'not_results', message: `${name} is not JSON: ${(cause as Error).message}` } };
  }
  const parsed = ResultsSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? issue.path.join('.') : 'the top level';
    return {
      ok: false,
      error: { code: 'not_results', message: `${name} is not a cohort-bench/1 results file: ${where}: ${issue?.message}` },
    };
  }
  // the schema checked every field the formatters read; the rest is the bench's own shape
  return { ok: true, results: parsed.data as unknown as BenchResults };
}

/** The line above a table: the command, the machine, its load and how long the run took. */
function runLine(results: BenchResults, command: string): string {
  const m = results.machine;
  const flag = results.mode === 'quick' ? ' --quick' : '';
  return `\`./pnpmw bench${flag}${command}\` on ${m.cpus} × ${m.cpuModel}, ${m.memoryGb} GB, Node ${m.node}, ${m.platform}, load average ${m.loadAverage.toFixed(1)}; ${results.seconds.toFixed(0)} s.`;
}

/** A soak row's heap slope, signed, and the heap's range over the run. */
function soakFigure(row: BenchRow): string {
  const v = row.cohort.value;
  const slope = `${v < 0 ? '−' : '+'}${formatNumber(Math.abs(v))} ${row.cohort.unit}`;
  const heap = row.detail?.['heapMb'];
  if (!Array.isArray(heap) || heap.length === 0 || !heap.every((h) => typeof h === 'number')) return slope;
  const range = `${Math.min(...heap).toFixed(2)}–${Math.max(...heap).toFixed(2)} MB`;
  return `${slope} (${range} over the run)`;
}

function soakTable(rows: readonly BenchRow[]): string {
  const out = ['| | scenario | heap after GC, per 10,000 sessions | target | met? |', '| --- | --- | ---: | --- | --- |'];
  for (const r of rows) {
    const met = r.met === null ? 'info' : r.met ? 'yes' : '**no**';
    out.push(`| ${r.id} | ${r.scenario.replace(/^soak: /, '')} | ${soakFigure(r)} | ${r.target.text} | ${met} |`);
  }
  return out.join('\n');
}

/** What each region would hold for `results`; a region the run did not measure is absent. */
function regionsFor(results: BenchResults): Map<RegionName, string> {
  const out = new Map<RegionName, string>();
  const soak = results.rows.filter((r) => r.id.startsWith('8'));
  const rest = results.rows.filter((r) => !r.id.startsWith('8'));
  if (rest.length > 0) out.set('results', `${runLine(results, '')}\n\n${formatMarkdown(rest)}`);
  if (results.peers) out.set('peers', formatPeersMarkdown(results.peers as PeerTable));
  if (soak.length > 0) out.set('soak', `${runLine(results, ' --only 8')}\n\n${soakTable(soak)}`);
  return out;
}

const region = (name: RegionName): RegExp => new RegExp(`(<!-- bench:${name} [^\\n]*-->\\n)[\\s\\S]*?(\\n<!-- /bench:${name} -->)`);

/**
 * Rewrites the regions of `doc` that `results` measured, each from its own rows: the run's
 * table (every scenario but the soak), the peer comparison, the soak's table. Text outside
 * the markers is kept byte for byte.
 *
 * @example
 * const r = renderPerformanceDocs(readFileSync('docs/performance.md', 'utf8'), results);
 * if (r.ok) writeFileSync('docs/performance.md', r.text);
 */
export function renderPerformanceDocs(doc: string, results: BenchResults): RenderResult {
  if (results.mode === 'smoke') {
    return { ok: false, error: { code: 'smoke_run', message: 'a smoke run measures nothing: run ./pnpmw bench (or --quick, --only 8)' } };
  }
  const regions = regionsFor(results);
  if (regions.size === 0)
    return { ok: false, error: { code: 'nothing_to_write', message: 'the results hold no rows and no peer comparison' } };
  let text = doc;
  for (const [name, body] of regions) {
    if (!region(name).test(text)) {
      return {
        ok: false,
        error: { code: 'missing_region', message: `no <!-- bench:${name} … --> … <!-- /bench:${name} --> markers in the document` },
      };
    }
    text = text.replace(region(name), (_all, open: string, close: string) => `${open}${body}${close}`);
  }
  return { ok: true, text, updated: [...regions.keys()] };
}
