import { execFile } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..', '..');

function runExample(env: NodeJS.ProcessEnv): Promise<{ stdout: string }> {
  const clean: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', ...env };
  for (const key of ['COHORT_MODEL', 'ANTHROPIC_API_KEY', 'ANTHROPIC_BASE_URL']) if (!(key in env)) delete clean[key];
  return promisify(execFile)(process.execPath, ['--import', 'tsx', join(root, 'examples', 'learning-loop.ts')], { cwd: root, env: clean });
}

type Message = { role: string; content: string | { type: string; text?: string }[] };

/**
 * A stand-in for Anthropic's Messages API on the loopback interface: the reflector delegates
 * one task per trace, each child adds a skill, and the request for trace-3's second step is
 * refused with an HTTP 400 (not retried), so that child fails.
 */
function fakeAnthropic(): Promise<{ url: string; close: () => void; requests: number }> {
  const state = { requests: 0 };
  const server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    req.on('end', () => {
      state.requests++;
      const body = JSON.parse(raw) as { system?: { text: string }[]; messages: Message[] };
      const reply = answer(JSON.stringify(body.system ?? ''), body.messages);
      res.writeHead(reply.status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(reply.body));
    });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}/v1`,
        close: () => server.close(),
        get requests() {
          return state.requests;
        },
      });
    });
  });
}

function answer(system: string, messages: Message[]): { status: number; body: unknown } {
  const first = messages[0]?.content;
  const task = typeof first === 'string' ? first : (first?.[0]?.text ?? '');
  const step = messages.filter((m) => m.role === 'assistant').length;
  if (system.includes('reflecting')) {
    if (step > 0) return message([{ type: 'text', text: 'Delegated every trace.' }]);
    const tasks = ['trace-1', 'trace-2', 'trace-3'].map((id) => ({ prompt: `Distil one skill from ${id}`, name: id }));
    return message([{ type: 'tool_use', id: 'r', name: 'recurse', input: { tasks } }]);
  }
  if (step === 0)
    return message([
      {
        type: 'tool_use',
        id: 'a',
        name: 'add_skill',
        input: {
          section: 'context',
          issue: `lesson of ${task.slice(-7)}`,
          insight: 'do better',
          keywords: null,
          skill_id: null,
          insight_source: null,
        },
      },
    ]);
  if (task.endsWith('trace-3'))
    return { status: 400, body: { type: 'error', error: { type: 'invalid_request_error', message: 'refused for the test' } } };
  return message([{ type: 'text', text: 'Done.' }]);
}

function message(content: unknown[]): { status: number; body: unknown } {
  const toolUse = content.some((c) => (c as { type: string }).type === 'tool_use');
  return {
    status: 200,
    body: {
      id: 'm',
      type: 'message',
      role: 'assistant',
      model: 'claude-test',
      content,
      stop_reason: toolUse ? 'tool_use' : 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: 100, output_tokens: 10 },
    },
  };
}

describe('examples/learning-loop.ts', () => {
  it('runs offline: two children distil skills into the book, the failed one leaves nothing, and it prints the tree and the prompt', async () => {
    const { stdout } = await runExample({});
    expect(stdout).toContain('reflector: committed 3 op(s) into the book');
    expect(stdout).toMatch(/├─ trace-1: committed 1 op\(s\) into reflector/);
    expect(stdout).toMatch(/└─ trace-3: failed \(crashed\): the model provider is unavailable \(503\); discarded 1 op\(s\)/);
    const prompt = stdout.slice(stdout.indexOf('The Skillbook as a prompt:'));
    expect(prompt).toContain('Issue: an API answers HTTP 429');
    expect(prompt).toContain('Issue: a date like 03/04/2025 from a UK source');
    expect(prompt).toContain('Issue: a step fails or runs long');
    expect(prompt).not.toContain('a document too long for one call');
  });

  it('runs unchanged against a provider package when COHORT_MODEL names one (Anthropic, on a loopback stand-in)', async () => {
    const server = await fakeAnthropic();
    try {
      const { stdout } = await runExample({
        COHORT_MODEL: 'anthropic:claude-test',
        ANTHROPIC_API_KEY: 'test',
        ANTHROPIC_BASE_URL: server.url,
      });
      expect(stdout).toContain('with anthropic:claude-test');
      expect(stdout).toMatch(/reflector: committed 2 op\(s\) into the book/);
      expect(stdout).toMatch(/└─ trace-3: failed \(crashed\): refused for the test; discarded 1 op\(s\)/);
      expect(stdout).toContain('Issue: lesson of trace-1');
      expect(stdout).not.toContain('lesson of trace-3');
      expect(server.requests).toBe(2 + 2 + 2 + 2);
    } finally {
      server.close();
    }
  });
});
