import type { CallMessage, CallPart } from '@cohort/runtime';

/** A prompt message or content part as the AI SDK's model interface has it (any spec version). */
type AnyPart = { readonly type: string } & Readonly<Record<string, unknown>>;
type AnyMessage = { readonly role: string; readonly content: string | readonly AnyPart[] };

const ROLES = new Set(['system', 'user', 'assistant', 'tool']);

/** A prompt's messages as a recording keeps them: text, reasoning, tool calls and results; anything else described. */
export function callMessages(prompt: readonly AnyMessage[]): CallMessage[] {
  return prompt.map((m) => ({
    role: (ROLES.has(m.role) ? m.role : 'user') as CallMessage['role'],
    parts: typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content.map(callPart),
  }));
}

/** A content part (of a prompt or of a model's answer) as a recording keeps it. */
export function callPart(part: AnyPart): CallPart {
  switch (part.type) {
    case 'text':
    case 'reasoning':
      return { type: part.type, text: String(part['text'] ?? '') };
    case 'tool-call':
      return {
        type: 'tool-call',
        toolCallId: String(part['toolCallId']),
        toolName: String(part['toolName']),
        input: toolInput(part['input']),
      };
    case 'tool-result': {
      const { value, isError } = toolOutput(part['output'] ?? part['result']);
      return {
        type: 'tool-result',
        toolCallId: String(part['toolCallId']),
        toolName: String(part['toolName']),
        output: value,
        ...(isError ? { isError } : {}),
      };
    }
    default:
      return { type: 'other', text: describe(part) };
  }
}

/** A tool call's input: a model's answer carries it as JSON text, a prompt as the value. */
function toolInput(input: unknown): unknown {
  if (typeof input !== 'string') return input;
  try {
    return JSON.parse(input);
  } catch {
    return input;
  }
}

/** A tool result's output, unwrapped from the SDK's `{ type: 'json' | 'text' | 'error-…', value }`. */
function toolOutput(output: unknown): { value: unknown; isError: boolean } {
  if (output && typeof output === 'object' && 'type' in output) {
    const { type, value, reason } = output as { type: unknown; value?: unknown; reason?: unknown };
    const isError = typeof type === 'string' && (type.startsWith('error') || type === 'execution-denied');
    return { value: value ?? reason ?? null, isError };
  }
  return { value: output ?? null, isError: false };
}

function describe(part: AnyPart): string {
  const media = part['mediaType'] ?? part['mimeType'];
  const name = part['filename'] ?? part['title'] ?? part['url'];
  const words = [part.type, media, name].filter((x) => typeof x === 'string');
  return `[${words.join(' ')}]`;
}
