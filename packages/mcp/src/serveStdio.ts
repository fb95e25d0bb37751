import type { Readable, Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { SkillbookMcp } from './SkillbookMcp.ts';

/**
 * Serves one client — the process that started this one — over stdin and stdout, the MCP
 * stdio transport. Resolves once connected, with `ended`: resolves when stdin ends (the client
 * went away or closed the pipe), after which the client's open tasks are dropped. Nothing
 * else may write to `output`: log to stderr.
 *
 * @example
 * const { ended } = await serveStdio(mcp);
 * await ended;
 */
export async function serveStdio(
  mcp: SkillbookMcp,
  input: Readable = process.stdin,
  output: Writable = process.stdout,
): Promise<{ readonly ended: Promise<void> }> {
  const transport = new StdioServerTransport(input, output);
  const ended = new Promise<void>((resolve) => {
    const done = () => {
      void transport.close().finally(resolve);
    };
    input.once('end', done);
    input.once('close', done);
  });
  await mcp.connect(transport);
  return { ended };
}
