import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { flatWorkload, treeWorkload, verify } from '../src/index.ts';
import { peerSystems } from '../src/peers/peerSystems.ts';
import { runPeerProcess, timePeerProcess } from '../src/peers/runPeerProcess.ts';

const pinned = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { dependencies: Record<string, string> })
  .dependencies;

describe('peer systems - the same workload, run the way each is used', () => {
  for (const system of peerSystems) {
    it(`${system.name} drops the writes of a crashed child and of the children under it`, async () => {
      const tree = treeWorkload('tree', 10, 2);
      const run = await system.run(tree);
      expect(verify(tree, run.kept)).toEqual({ expected: 900, survived: 900, crashedKept: 0, ok: true });
      expect(run.ms).toBeGreaterThan(0);
    });
  }

  it('the names carry the exact versions the bench pins', () => {
    expect(peerSystems.map((s) => s.name)).toEqual(
      expect.arrayContaining([`LangGraph.js ${pinned['@langchain/langgraph']}`, `Effect ${pinned['effect']}`]),
    );
    expect(pinned['@langchain/core']).toMatch(/^1\.4\.\d+$/);
  });
});

// Through tsx, as when the harness runs from source with no bundle beside it.
describe('runPeerProcess - one system in a process of its own', () => {
  it('reports the run, checked, and its peak memory over the process baseline', async () => {
    const result = await runPeerProcess('floor', treeWorkload('tree', 10, 2), 60_000);
    expect(result).toMatchObject({ capped: false, verdict: { ok: true, survived: 900 } });
    expect(result.rssIncreaseMb).toEqual(expect.any(Number));
  }, 60_000);

  it('times every workload it is given, after its warm-up runs, each checked', async () => {
    const tree = treeWorkload('tree', 10, 2);
    const flat = flatWorkload('flat', 30);
    const times = await timePeerProcess('effect', [tree, flat], 1, 2, 60_000);
    expect(times.name).toMatch(/^Effect \d/);
    expect([...times.byWorkload.keys()]).toEqual(['tree', 'flat']);
    for (const { samples, verdict } of times.byWorkload.values()) {
      expect(samples).toHaveLength(2);
      expect(verdict.ok).toBe(true);
    }
    expect(times.byWorkload.get('tree')?.verdict.survived).toBe(900);
  }, 60_000);

  it('kills a run that outlasts its cap and reports it as capped, unchecked', async () => {
    const result = await runPeerProcess('langgraph', treeWorkload('tree', 10, 3), 1);
    expect(result).toMatchObject({ ms: 1, capped: true, verdict: null });
  }, 60_000);
});
