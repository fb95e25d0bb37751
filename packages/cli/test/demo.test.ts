import { describe, expect, it } from 'vitest';
import { runCohort } from './utils/runCohort.ts';

async function demo(): Promise<{ code: number; text: string }> {
  const { code, out } = await runCohort(['demo']);
  return { code, text: out };
}

describe('cohort demo', () => {
  it('explains itself to a newcomer, and shows the code of each scenario before running it', async () => {
    const { code, text } = await demo();
    expect(code).toBe(0);
    expect(text).toMatch(/^Cohort runs AI-agent sessions in parallel/);
    expect(text).toContain('ACE, the agentic-context-engine');
    expect(text.match(/^The code \(the root session's body/gm)).toHaveLength(3);
    // the code shown is the scenario's source, as written
    expect(text).toContain("    { name: 'researcher', timeoutMs: 1_000 },");
    expect(text).toContain("    throw new Error('simulated sandbox/tool crash');");
  });

  it('a crash: the crashed child leaves nothing, A lands in one entry', async () => {
    const { text } = await demo();
    const [first] = text.split('2. A session that runs out of time');
    expect(first).toContain('B .. failed (crashed): simulated sandbox/tool crash; discarded 1 op');
    const finalBook = first?.split('Final book')[1] ?? '';
    expect(finalBook).toContain('a1: paginate large result sets');
    expect(finalBook).not.toContain('b1-leaked');
    expect(first?.match(/rev \d+ {2}root\/A\n/g)).toHaveLength(1);
  });

  it('a timeout: the slow session fails with kind timeout and its skill is discarded; its sibling commits', async () => {
    const { text } = await demo();
    const second = text.split('2. A session that runs out of time')[1]?.split('3. Two sessions')[0] ?? '';
    expect(second).toMatch(/researcher \.+ failed \(timeout\): .*; discarded 1 op/);
    expect(second).toMatch(/tester \.+ committed/);
    const finalBook = second.split('Final book')[1] ?? '';
    expect(finalBook).toContain('slow test suite');
    expect(finalBook).not.toContain('half-finished research');
  });

  it('a conflict: the editor is rejected naming the skill; a crashed parent takes its merged child along', async () => {
    const { text } = await demo();
    const third = text.split('3. Two sessions change the same skill')[1] ?? '';
    expect(third).toMatch(/editor \.+ failed \(conflict\): .*UPDATE context-00001: removed/);
    expect(third).toContain('discarded 1 op and 1 descendant');
    expect(third.split('Final book')[1]).not.toContain('grandchild note');
  });

  it("one word, one counter: every revision it names is one the book went through; a draft's changes are never called that", async () => {
    const { text } = await demo();
    for (const scenario of text.split(/^\d\. /m).slice(1)) {
      const bookRevisions = new Set(['1', ...[...scenario.matchAll(/^ {2}rev (\d+) /gm)].map((m) => m[1])]);
      for (const [said, n] of scenario.matchAll(/revision (\d+)/g))
        expect(bookRevisions, `"${said}" in: ${scenario.slice(0, 40)}`).toContain(n);
    }
    expect(text).not.toMatch(/into demo\.\d+ at revision/);
  });

  it("says why skill ids skip numbers: an id is given for good when the skill is added, from the runtime's lease", async () => {
    const { text } = await demo();
    const first = text.split('2. A session that runs out of time')[0] ?? '';
    expect(first).toMatch(/context-00003/);
    expect(first).toMatch(/lease/);
  });
});
