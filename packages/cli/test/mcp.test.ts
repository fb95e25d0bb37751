import { describe, expect, it } from 'vitest';
import { runCohort } from './utils/runCohort.ts';

// `cohort mcp` serving real clients: mcp.process.test.ts (a process of its own each)
describe('cohort mcp', () => {
  it('usage - no book and no --memory, or a bad --http, is a usage error', async () => {
    expect((await runCohort(['mcp'])).code).toBe(2);
    const bad = await runCohort(['mcp', '--memory', '--http', 'localhost:99999']);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/expected a port up to 65535/);
    const token = await runCohort(['mcp', '--memory', '--token', 'x']);
    expect({ code: token.code, err: token.err }).toEqual({ code: 2, err: expect.stringMatching(/--token needs --http/) });
  });
});
