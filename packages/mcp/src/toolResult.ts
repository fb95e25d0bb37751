import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/** A successful result: `structured` as `structuredContent`, and as JSON text for clients that read only text. */
export function ok(structured: Record<string, unknown>, text = JSON.stringify(structured, null, 2)): CallToolResult {
  return { content: [{ type: 'text', text }], structuredContent: structured };
}

/** A refused call, as MCP reports tool errors: `isError`, the reason as text and as `{ error }`. */
export function refused(error: string): CallToolResult {
  return { content: [{ type: 'text', text: error }], structuredContent: { error }, isError: true };
}
