import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..', '..');

describe('examples/learning-loop.ts', () => {
  it('runs offline: two children distil skills into the book, the failed one leaves nothing, and it prints the tree and the prompt', async () => {
    const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1' };
    delete env['COHORT_MODEL'];
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', join(root, 'examples', 'learning-loop.ts')], { cwd: root, env });
    expect(stdout).toContain('reflector: committed 3 op(s) into the book');
    expect(stdout).toMatch(/├─ trace-1: committed 1 op\(s\) into reflector/);
    expect(stdout).toMatch(/└─ trace-3: failed \(crashed\): the model provider is unavailable \(503\); discarded 1 op\(s\)/);
    const prompt = stdout.slice(stdout.indexOf('The Skillbook as a prompt:'));
    expect(prompt).toContain('Issue: an API answers HTTP 429');
    expect(prompt).toContain('Issue: a date like 03/04/2025 from a UK source');
    expect(prompt).toContain('Issue: a step fails or runs long');
    expect(prompt).not.toContain('a document too long for one call');
  });
});
