import { describe, expect, it } from 'vitest';
import { runCli } from '../src/runCli.ts';

async function cli(...argv: string[]): Promise<{ code: number; text: string }> {
  let text = '';
  const code = await runCli(argv, { write: (s) => void (text += s) });
  return { code, text };
}

describe('cohort demo', () => {
  it('tells the ACE scenario: the crashed child leaves nothing, A lands in one entry', async () => {
    const { code, text } = await cli('demo');
    expect(code).toBe(0);
    expect(text).toContain('B .. failed (crashed): simulated sandbox/tool crash; discarded 1 op');
    const [first, second] = text.split('2. A nested tree with a conflict');
    const finalBook = first?.split('Final book')[1] ?? '';
    expect(finalBook).toContain('a1: paginate large result sets');
    expect(finalBook).not.toContain('b1-leaked');
    expect(first?.match(/rev \d+ {2}root\/A\n/g)).toHaveLength(1);
    expect(second).toMatch(/editor \.+ failed \(conflict\): .*UPDATE context-00001: removed/);
    expect(second).toContain('discarded 1 op and 1 descendant');
    expect(second?.split('Final book')[1]).not.toContain('grandchild note');
  });

  it('prints usage and exits 2 on an unknown command', async () => {
    const { code, text } = await cli('frobnicate');
    expect(code).toBe(2);
    expect(text).toContain('unknown command: frobnicate');
    expect(text).toContain('usage:');
  });
});
