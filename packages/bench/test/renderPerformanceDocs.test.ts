import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { BenchResults } from '../src/index.ts';
import { absoluteRow, ratioRow } from '../src/Scenario.ts';
import { parseResults, renderPerformanceDocs } from '../scripts/renderPerformanceDocs.ts';
import type { RegionName } from '../scripts/renderPerformanceDocs.ts';

const marker = (name: RegionName, body: string): string =>
  `<!-- bench:${name} — written by ./pnpmw bench:docs: do not edit by hand -->\n${body}\n<!-- /bench:${name} -->`;
const DOC = [
  '# Performance',
  '',
  'Prose the generator never touches.',
  '',
  marker('results', 'old table'),
  '',
  'Between.',
  '',
  marker('peers', 'old peers'),
  '',
  marker('soak', 'old soak'),
  '',
  'The end.',
  '',
].join('\n');

const machine = { node: 'v20.20.2', platform: 'linux x64', cpus: 2, cpuModel: 'AMD EPYC', memoryGb: 25, loadAverage: 1.5 };
const at = { kind: 'at-most', value: 5, text: '≤ 5×' } as const;
const fullRun: BenchResults = {
  format: 'cohort-bench/1',
  mode: 'full',
  startedAt: '2026-01-01T00:00:00.000Z',
  seconds: 267.4,
  machine,
  peakRssMb: 300,
  rows: [
    ratioRow(
      '2a',
      'fan-out 10,000 × 10, vs the async floor',
      { value: 2338, unit: 'ms' },
      { value: 109, unit: 'ms', label: 'async floor' },
      21.5,
      at,
    ),
  ],
  peers: {
    workloads: [{ id: '1k', label: 'n = 1,000', fanOut: [1000], k: 10 }],
    memoryWorkload: '1k',
    capMs: 30_000,
    lines: [
      {
        key: 'cohort',
        name: 'Cohort',
        cells: { '1k': { time: { value: 351, unit: 'ms' }, capped: false, verdict: null } },
        memory: { increaseMb: 241, capped: false, verdict: null },
      },
      {
        key: 'floor',
        name: 'async floor',
        cells: { '1k': { time: { value: 2.93, unit: 'ms' }, capped: false, verdict: null } },
        memory: { increaseMb: 53.9, capped: false, verdict: null },
      },
    ],
  },
};
const soakRun: BenchResults = {
  ...fullRun,
  seconds: 331,
  peers: null,
  rows: [
    absoluteRow(
      '8a',
      'soak: 200k sequential TAG sessions, memory store',
      { value: -15.5, unit: 'KB' },
      { kind: 'at-most', value: 100, text: '≤ 100 KB / 10k' },
      { heapMb: [23.11, 23.79, 23.4] },
    ),
  ],
};

describe('bench:docs - the performance page written from results', () => {
  it('rewrites each region a run measured from its rows, and keeps every other byte', () => {
    const r = renderPerformanceDocs(DOC, fullRun);
    expect(r.ok && r.updated).toEqual(['results', 'peers']);
    if (!r.ok) return;
    expect(r.text).toContain(
      '`./pnpmw bench` on 2 × AMD EPYC, 25 GB, Node v20.20.2, linux x64, load average 1.5; 267 s.\n\n| | scenario |',
    );
    expect(r.text).toContain('| 2a | fan-out 10,000 × 10, vs the async floor | 2,338 ms | 109 ms (async floor) | 21.5× | ≤ 5× | **no** |');
    expect(r.text).toContain('| async floor | 2.93 ms, 120× faster | +53.9 MB | not checked |');
    // the soak's region is a run of its own: left as it was
    expect(r.text).toContain(marker('soak', 'old soak'));
    expect(r.text.replace(/<!-- bench:(\w+) [^\n]*-->\n[\s\S]*?\n<!-- \/bench:\1 -->/g, '')).toBe(
      DOC.replace(/<!-- bench:(\w+) [^\n]*-->\n[\s\S]*?\n<!-- \/bench:\1 -->/g, ''),
    );
    // written again from the same results, nothing changes
    const again = renderPerformanceDocs(r.text, fullRun);
    expect(again.ok && again.text).toBe(r.text);
  });

  it('writes the soak table with the heap slope signed and its range over the run', () => {
    const r = renderPerformanceDocs(DOC, soakRun);
    expect(r.ok && r.updated).toEqual(['soak']);
    expect(r.ok && r.text).toContain(
      '`./pnpmw bench --only 8` on 2 × AMD EPYC, 25 GB, Node v20.20.2, linux x64, load average 1.5; 331 s.\n\n' +
        '| | scenario | heap after GC, per 10,000 sessions | target | met? |\n| --- | --- | ---: | --- | --- |\n' +
        '| 8a | 200k sequential TAG sessions, memory store | −15.5 KB (23.11–23.79 MB over the run) | ≤ 100 KB / 10k | yes |\n<!-- /bench:soak -->',
    );
  });

  it('refuses what it cannot write, saying why: a smoke run, a page without the markers, a file that is not results', () => {
    expect(renderPerformanceDocs(DOC, { ...fullRun, mode: 'smoke' })).toMatchObject({ ok: false, error: { code: 'smoke_run' } });
    expect(renderPerformanceDocs(DOC, { ...fullRun, rows: [], peers: null })).toMatchObject({
      ok: false,
      error: { code: 'nothing_to_write' },
    });
    const noPeers = DOC.replace(marker('peers', 'old peers'), '');
    expect(renderPerformanceDocs(noPeers, fullRun)).toMatchObject({
      ok: false,
      error: { code: 'missing_region', message: expect.stringContaining('bench:peers') },
    });
    expect(parseResults('{"format": "cohort-bench/1"', 'r.json')).toMatchObject({
      ok: false,
      error: { code: 'not_results', message: expect.stringContaining('r.json is not JSON') },
    });
    const wrong = parseResults(JSON.stringify({ ...fullRun, rows: [{ id: '2a' }] }), 'r.json');
    expect(wrong).toMatchObject({ ok: false, error: { code: 'not_results', message: expect.stringContaining('rows.0.scenario') } });
    expect(parseResults(JSON.stringify({ ...fullRun, format: 'other/1' }), 'r.json')).toMatchObject({
      ok: false,
      error: { code: 'not_results' },
    });
    expect(parseResults(JSON.stringify(fullRun), 'r.json')).toMatchObject({ ok: true, results: { rows: [{ id: '2a' }] } });
  });

  it('finds each region once in docs/performance.md', () => {
    const doc = readFileSync(new URL('../../../docs/performance.md', import.meta.url), 'utf8');
    for (const name of ['results', 'peers', 'soak']) {
      expect(doc.match(new RegExp(`<!-- bench:${name} `, 'g'))).toHaveLength(1);
      expect(doc.match(new RegExp(`<!-- /bench:${name} -->`, 'g'))).toHaveLength(1);
    }
  });
});
