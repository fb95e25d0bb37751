import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { SkillbookMcp } from '../../src/index.ts';

/** A real SDK client connected to `mcp` in memory, named `name`. */
export async function inMemoryClient(mcp: SkillbookMcp, name: string): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await mcp.connect(serverSide);
  const client = new Client({ name, version: '1.0.0' });
  await client.connect(clientSide);
  return client;
}

/** Calls `tool` and returns its result, typed as a tool result. */
export async function call(client: Client, tool: string, args: Record<string, unknown> = {}): Promise<CallToolResult> {
  return (await client.callTool({ name: tool, arguments: args })) as CallToolResult;
}

/** The structured content of a successful call; throws with the text of a refused one. */
export async function value(client: Client, tool: string, args: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  const result = await call(client, tool, args);
  if (result.isError) throw new Error(`${tool} refused: ${JSON.stringify(result.content)}`);
  return result.structuredContent as Record<string, unknown>;
}
